/* fio's checkpointed verify state and the no-loss verdict on its verify-only pass
 * (engine/fio_check.h), on lines rig-dut printed on the QEMU board. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "judge/fio.h"

#define STATE "AwAAAAAAAACoAAAAAAAAAJGU4+QAAAAAAQAAAAAAAAABAAAAAQAAAJcFAAAAAAAAAAAAAAAAAAAA"

static void test_feed_checkpoint_lines(void **state)
{
	struct fio_acks a = { 0 };

	(void)state;
	assert_int_equal(fio_ack_feed(&a, "fio=loop-ext4 written=1431 state=" STATE), 1);
	assert_int_equal(fio_ack_feed(&a, "fio=nvme-btrfs error=no-state"), 1);
	assert_int_equal(fio_ack_feed(&a, "writer=nvme-ext4-m alive=1"), 0);
	assert_int_equal(fio_ack_feed(&a, "fio= written=3 state=" STATE), 0);
	assert_int_equal(fio_ack_feed(&a, "fio=sata-xfs state=" STATE), 1);   /* no count */
	assert_int_equal(fio_ack_feed(&a, "fio=nvme-ext4 written=5 state="), 1);
	/* fio between two runs: nothing acknowledged, which is no error */
	assert_int_equal(fio_ack_feed(&a, "fio=nvme-btrfs written=0 between_runs=1"), 1);
	assert_int_equal(a.n, 5);
	assert_string_equal(a.items[4].error, "");
	assert_int_equal(a.items[4].written, 0);
	assert_string_equal(a.items[0].fs, "loop-ext4");
	assert_int_equal(a.items[0].written, 1431);
	assert_string_equal(a.items[0].state, STATE);
	assert_string_equal(a.items[0].error, "");
	assert_string_equal(a.items[1].error, "no-state");
	assert_string_equal(a.items[1].state, "");
	assert_string_equal(a.items[2].error, "no-write-count");
	assert_string_equal(a.items[2].state, "");
	assert_string_equal(a.items[3].error, "no-state");
}

static void test_state_too_long_is_an_error(void **state)
{
	static char line[4096];
	struct fio_acks a = { 0 };
	size_t used = (size_t)snprintf(line, sizeof(line), "fio=nvme-ext4 written=7 state=");

	(void)state;
	memset(line + used, 'A', sizeof(a.items[0].state) + 10);
	line[used + sizeof(a.items[0].state) + 10] = '\0';
	assert_int_equal(fio_ack_feed(&a, line), 1);
	assert_string_equal(a.items[0].error, "state-too-long");
	assert_string_equal(a.items[0].state, "");
}

/* Name and state go back to the board in a `sh -c` command line (rig-dut fio-verify NAME=STATE):
 * anything but a plain name and base64 is an error and is never sent. */
static void test_shell_syntax_off_the_console_is_refused(void **state)
{
	struct fio_acks a = { 0 };

	(void)state;
	assert_int_equal(fio_ack_feed(&a, "fio=\"x;reboot -f\" written=3 state=" STATE), 1);
	assert_int_equal(fio_ack_feed(&a, "fio=x$(reboot) written=3 state=" STATE), 1);
	assert_int_equal(fio_ack_feed(&a, "fio=nvme-ext4 written=3 state=AAA;reboot"), 1);
	assert_int_equal(fio_ack_feed(&a, "fio=nvme-ext4 written=3 state=\"AA $(id)\""), 1);
	/* negative control: the same shapes with clean words are accepted */
	assert_int_equal(fio_ack_feed(&a, "fio=x_reboot-f written=3 state=AAA+/reboot="), 1);
	assert_int_equal(a.n, 5);
	assert_string_equal(a.items[0].error, "bad-name");
	assert_string_equal(a.items[0].fs, "?");
	assert_string_equal(a.items[1].error, "bad-name");
	assert_string_equal(a.items[2].error, "bad-state");
	assert_string_equal(a.items[2].state, "");
	assert_string_equal(a.items[3].error, "bad-state");
	assert_string_equal(a.items[4].error, "");
	assert_string_equal(a.items[4].state, "AAA+/reboot=");
}

static void test_table_full(void **state)
{
	struct fio_acks a = { 0 };

	(void)state;
	for (int i = 0; i < FIO_ACKS_MAX; i++)
		assert_int_equal(fio_ack_feed(&a, "fio=x written=1 state=" STATE), 1);
	assert_int_equal(fio_ack_feed(&a, "fio=y written=1 state=" STATE), 0);
	assert_int_equal(a.n, FIO_ACKS_MAX);
}

static struct fio_ack ack(uint64_t written)
{
	struct fio_ack k;

	memset(&k, 0, sizeof(k));
	snprintf(k.fs, sizeof(k.fs), "loop-ext4");
	snprintf(k.state, sizeof(k.state), STATE);
	k.written = written;
	return k;
}

static void test_every_acknowledged_block_intact_passes(void **state)
{
	struct fio_ack k = ack(1431);
	char detail[512];
	long verified;

	(void)state;
	assert_int_equal(fio_verify_judge(&k, "fio=loop-ext4 verify=pass acked=1431 verified=1431 "
					  "err=0 rc=0", &verified, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_int_equal(verified, 1431);
	assert_non_null(strstr(detail, "every acknowledged block intact (1431 of 1431"));
}

static void test_lost_blocks_fail(void **state)
{
	struct fio_ack k = ack(1894);
	char detail[512];
	long verified;

	(void)state;
	assert_int_equal(fio_verify_judge(&k, "fio=loop-ext4 verify=fail acked=1894 verified=2 "
					  "err=84 rc=1 first_error=\"verify: bad magic header 0, "
					  "wanted acca at file /mnt/loop-ext4/rand-write.dat offset "
					  "24838144, length 4096\"", &verified, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_int_equal(verified, 2);
	assert_non_null(strstr(detail, "lost or damaged (2 of 1894"));
	assert_non_null(strstr(detail, "bad magic header 0"));
	assert_int_equal(fio_verify_judge(&k, "fio=nvme-btrfs verify=fail acked=712 verified=0 err=2 "
					  "first_error=\"rand-write.dat is gone\"", &verified, detail,
					  sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "rand-write.dat is gone"));
}

static void test_a_pass_that_checked_too_little_fails(void **state)
{
	struct fio_ack k = ack(1431);
	char detail[512];
	long verified;

	(void)state;
	assert_int_equal(fio_verify_judge(&k, "fio=loop-ext4 verify=pass acked=1431 verified=1000 err=0",
					  &verified, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "only 1000 of 1431"));
	assert_int_equal(fio_verify_judge(&k, "fio=loop-ext4 verify=pass acked=1431 err=0", &verified,
					  detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);     /* no count: nothing proves the blocks were read */
	assert_int_equal(verified, -1);
}

static void test_nothing_to_check(void **state)
{
	struct fio_ack k = ack(0), broken = ack(5);
	char detail[512];
	long verified;

	(void)state;
	assert_int_equal(fio_verify_judge(&k, "", &verified, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	snprintf(broken.error, sizeof(broken.error), "no-state");
	assert_int_equal(fio_verify_judge(&broken, "", &verified, detail, sizeof(detail)),
			 RESULTS_VERDICT_ERROR);
	assert_non_null(strstr(detail, "no-state"));
	k = ack(5);
	assert_int_equal(fio_verify_judge(&k, "fio=loop-ext4 error=bad-state", &verified, detail,
					  sizeof(detail)),
			 RESULTS_VERDICT_ERROR);
	assert_int_equal(fio_verify_judge(&k, "sh: fio: not found", &verified, detail, sizeof(detail)),
			 RESULTS_VERDICT_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_feed_checkpoint_lines),
		cmocka_unit_test(test_state_too_long_is_an_error),
		cmocka_unit_test(test_shell_syntax_off_the_console_is_refused),
		cmocka_unit_test(test_table_full),
		cmocka_unit_test(test_every_acknowledged_block_intact_passes),
		cmocka_unit_test(test_lost_blocks_fail),
		cmocka_unit_test(test_a_pass_that_checked_too_little_fails),
		cmocka_unit_test(test_nothing_to_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
