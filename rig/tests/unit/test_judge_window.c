/* The frozen window from the rig's kprobe events (judge/window.h); the order verdict on it is
 * test_judge_stack_order.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/window.h"
#include "tests/unit/feed_window.h"

/* The kernel's order (newest superblock first): loop0 before the xfs holding its image. */
#define REVERSE_FREEZE                                                                   \
	{ "fs_freeze", "" }, { "freeze_super", "loop0" }, { "freeze_super_ret", "" },    \
	{ "freeze_super", "sda1" }, { "freeze_super_ret", "" },                          \
	{ "freeze_super", "nvme0n1p2" }, { "freeze_super_ret", "" },                     \
	{ "freeze_super", "nvme0n1p1" }, { "freeze_super_ret", "" }, { "fs_freeze_done", "" }
#define THAW                                                                             \
	{ "fs_thaw", "" }, { "thaw_super", "nvme0n1p1" }, { "thaw_super", "nvme0n1p2" },  \
	{ "thaw_super", "sda1" }, { "thaw_super", "loop0" }, { "fs_thaw_done", "" }

static void test_window_from_events(void **state)
{
	struct frozen_window w;

	(void)state;
	FEED(&w, REVERSE_FREEZE, THAW);
	assert_true(w.seen && w.freeze_done && w.thaw_seen && w.thaw_done);
	assert_string_equal(w.order, "loop0,sda1,nvme0n1p2,nvme0n1p1");
	assert_int_equal(w.n_frozen, 4);
	assert_true(w.devs[0].returned);
	assert_int_equal(w.devs[0].frozen_ns, 3000);     /* its freeze_super_ret */
	assert_int_equal(w.devs[0].thawed_ns, 15000);    /* thaw_super loop0 */
	assert_int_equal(w.freeze_ns, 1000);
	assert_int_equal(w.thaw_done_ns, 16000);
}

static void test_userspace_freeze_is_not_the_kernels(void **state)
{
	struct frozen_window w;

	(void)state;
	/* fsfreeze -f before the suspend, fsfreeze -u after: neither is in the order. */
	FEED(&w, { "freeze_super", "nvme0n1p1" }, { "freeze_super_ret", "" }, REVERSE_FREEZE,
	     THAW, { "freeze_super", "nvme0n1p1" });
	assert_string_equal(w.order, "loop0,sda1,nvme0n1p2,nvme0n1p1");
}

static void test_trace_line_dev(void **state)
{
	char dev[40];

	(void)state;
	trace_line_dev(" rig-dut-280  1..... 2722389us : freeze_super: (freeze_super+0x4/0x360) "
		       "who=9 dev=\"loop0\"", dev, sizeof(dev));
	assert_string_equal(dev, "loop0");
	trace_line_dev(" rig-dut-280  0..... 2560166us : fs_freeze: (filesystems_freeze+0x4/0x53)",
		       dev, sizeof(dev));
	assert_string_equal(dev, "");
	trace_line_dev("freeze_super: who=9 dev=\"sda", dev, sizeof(dev));   /* cut off */
	assert_string_equal(dev, "");
	trace_line_dev("dev=\"nvme0n1p1\"", dev, 5);
	assert_string_equal(dev, "nvme");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_from_events),
		cmocka_unit_test(test_userspace_freeze_is_not_the_kernels),
		cmocka_unit_test(test_trace_line_dev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
