/* The real libgpiod backend (1.6 or 2.x, whichever this program was built against).
 *
 * Everywhere: a chip that does not exist, and how a line's holder is described (a fake /proc).
 * With real GPIO lines -- RIG_TEST_GPIO_CHIP names a gpio-sim chip (label or device) and
 * RIG_TEST_GPIO_SIM its sysfs directory (.../gpio-sim.0/gpiochipN), as the virtual bench sets
 * them -- the lines themselves: the level a request drives is what gpio-sim sees, active-low
 * inverts it, an input reads the pull, a released line reverts to it, and a line held by another
 * consumer is refused naming chip, line and holder.  Without them those tests are skipped, and
 * say so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "power/gpio_holder.h"
#include "power/gpio_io.h"

static const struct gpio_io *io = &gpio_io_libgpiod;

static void test_library_version(void **state)
{
	const char *v = gpio_library_version();

	(void)state;
	assert_non_null(v);
	print_message("libgpiod %s\n", v);
	assert_true(v[0] == '1' || v[0] == '2');
}

static void test_missing_chip(void **state)
{
	struct rig_err err = { 0 };
	struct gpio_line *line = NULL;
	int value;

	(void)state;
	assert_int_equal(io->request_output(io, "no-such-gpio-chip", 0, 0, 0, &line, &err), -1);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, "GPIO chip no-such-gpio-chip: no such chip"));
	assert_null(line);
	assert_int_equal(io->read_input(io, "/dev/null", 0, 0, &value, &err), -1);
	assert_non_null(strstr(err.msg, "GPIO chip /dev/null"));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* /proc/PID/comm (when comm is not NULL) and /proc/PID/fdinfo/FD with fdinfo in a fake /proc. */
static void fake_proc(const char *root, const char *pid, const char *comm, const char *fd,
		      const char *fdinfo)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/fdinfo", root, pid);
	mkdir(path, 0755);
	if (comm) {
		snprintf(path, sizeof(path), "%s/%s/comm", root, pid);
		write_file(path, comm);
	}
	snprintf(path, sizeof(path), "%s/%s/fdinfo/%s", root, pid, fd);
	write_file(path, fdinfo);
}

/* pid 412 (gpioset) holds gpiochip1 lines 0 and 3; pid 77 gpiochip0 line 3; pid 90 has an
 * unrelated descriptor. */
static void test_holder_from_fdinfo(void **state)
{
	char root[] = "/tmp/rig-proc-XXXXXX", path[512], buf[256];

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_proc(root, "412", "gpioset\n", "5", "pos:\t0\nflags:\t02000002\ngpio-chip:\tgpiochip1\n"
		  "gpio-line:\t0\ngpio-line:\t3\n");
	fake_proc(root, "77", NULL, "3", "gpio-chip:\tgpiochip0\ngpio-line:\t3\n");
	fake_proc(root, "90", "sh\n", "1", "pos:\t0\n");

	gpio_holder_describe(root, "gpiochip1", 3, "gpioset", buf, sizeof(buf));
	assert_string_equal(buf, "'gpioset' (pid 412 gpioset)");
	gpio_holder_describe(root, "gpiochip1", 1, "someone", buf, sizeof(buf));
	assert_string_equal(buf, "'someone'");
	gpio_holder_describe(root, "gpiochip0", 3, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "'(no consumer label)' (pid 77 ?)");

	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
}

static void test_consumer_label(void **state)
{
	char want[32];

	(void)state;
	snprintf(want, sizeof(want), "rig[%ld]", (long)getpid());
	assert_string_equal(gpio_consumer_label(), want);
}

/* ---- on real lines (gpio-sim) ---- */

static const char *sim_chip(void)
{
	const char *chip = getenv("RIG_TEST_GPIO_CHIP");

	return chip && *chip ? chip : NULL;
}

static void need_sim(void)
{
	if (!sim_chip() || !getenv("RIG_TEST_GPIO_SIM")) {
		print_message("no gpio-sim here (RIG_TEST_GPIO_CHIP, RIG_TEST_GPIO_SIM unset): "
			      "skipped; the virtual bench runs it\n");
		skip();
	}
}

/* What gpio-sim says the wire carries: the level a consumer drives, or the pull. */
static int sim_value(unsigned offset)
{
	char path[512], buf[8] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/sim_gpio%u/value", getenv("RIG_TEST_GPIO_SIM"), offset);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	return atoi(buf);
}

static void sim_pull(unsigned offset, const char *pull)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/sim_gpio%u/pull", getenv("RIG_TEST_GPIO_SIM"), offset);
	write_file(path, pull);
}

/* The bench's spare line: nothing watches it. */
#define SPARE 7

static void test_output_drives_the_wire(void **state)
{
	struct rig_err err = { 0 };
	struct gpio_line *line = NULL;
	int value = -1;

	(void)state;
	need_sim();
	sim_pull(SPARE, "pull-down");
	assert_int_equal(io->request_output(io, sim_chip(), SPARE, 0, 1, &line, &err), 0);
	assert_int_equal(sim_value(SPARE), 1);
	assert_int_equal(io->set(io, line, 0, &err), 0);
	assert_int_equal(sim_value(SPARE), 0);
	assert_int_equal(io->set(io, line, 1, &err), 0);
	assert_int_equal(io->get(io, line, &value, &err), 0);
	assert_int_equal(value, 1);
	io->release(io, line);
	assert_int_equal(sim_value(SPARE), 0);   /* released: back to the pull */
}

static void test_active_low_inverts(void **state)
{
	struct rig_err err = { 0 };
	struct gpio_line *line = NULL;

	(void)state;
	need_sim();
	sim_pull(SPARE, "pull-up");
	assert_int_equal(io->request_output(io, sim_chip(), SPARE, GPIO_FLAG_ACTIVE_LOW, 1, &line,
					    &err), 0);
	assert_int_equal(sim_value(SPARE), 0);
	assert_int_equal(io->set(io, line, 0, &err), 0);
	assert_int_equal(sim_value(SPARE), 1);
	io->release(io, line);
	sim_pull(SPARE, "pull-down");
}

static void test_input_reads_the_pull(void **state)
{
	struct rig_err err = { 0 };
	int value = -1;

	(void)state;
	need_sim();
	sim_pull(SPARE, "pull-up");
	assert_int_equal(io->read_input(io, sim_chip(), SPARE, 0, &value, &err), 0);
	assert_int_equal(value, 1);
	assert_int_equal(io->read_input(io, sim_chip(), SPARE, GPIO_FLAG_ACTIVE_LOW, &value, &err), 0);
	assert_int_equal(value, 0);
	sim_pull(SPARE, "pull-down");
	assert_int_equal(io->read_input(io, sim_chip(), SPARE, 0, &value, &err), 0);
	assert_int_equal(value, 0);
}

static void test_held_line_names_its_holder(void **state)
{
	struct rig_err err = { 0 };
	struct gpio_line *first = NULL, *second = NULL;
	char holder[64];
	int value;

	(void)state;
	need_sim();
	assert_int_equal(io->request_output(io, sim_chip(), SPARE, 0, 0, &first, &err), 0);
	assert_int_equal(io->request_output(io, sim_chip(), SPARE, 0, 0, &second, &err), -1);
	print_message("%s\n", err.msg);
	assert_int_equal(err.class, RIG_EXIT_INFRA);
	assert_non_null(strstr(err.msg, sim_chip()));
	assert_non_null(strstr(err.msg, "line 7"));
	snprintf(holder, sizeof(holder), "already held by '%s'", gpio_consumer_label());
	assert_non_null(strstr(err.msg, holder));
	assert_int_equal(io->read_input(io, sim_chip(), SPARE, 0, &value, &err), -1);
	assert_non_null(strstr(err.msg, holder));
	io->release(io, first);
}

static void test_line_out_of_range(void **state)
{
	struct rig_err err = { 0 };
	struct gpio_line *line = NULL;

	(void)state;
	need_sim();
	assert_int_equal(io->request_output(io, sim_chip(), 999, 0, 0, &line, &err), -1);
	assert_non_null(strstr(err.msg, "line 999"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library_version),
		cmocka_unit_test(test_missing_chip),
		cmocka_unit_test(test_holder_from_fdinfo),
		cmocka_unit_test(test_consumer_label),
		cmocka_unit_test(test_output_drives_the_wire),
		cmocka_unit_test(test_active_low_inverts),
		cmocka_unit_test(test_input_reads_the_pull),
		cmocka_unit_test(test_held_line_names_its_holder),
		cmocka_unit_test(test_line_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
