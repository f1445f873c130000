/* The frozen window from the rig's kprobe events and the order verdict on it
 * (engine/trace_window.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/window.h"

struct ev {
	const char *name, *dev;
};

static void feed(struct frozen_window *w, const struct ev *evs, size_t n)
{
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n; i++)
		window_feed(w, evs[i].name, 1000 * (i + 1), evs[i].dev);
}

#define FEED(w, ...)                                                             \
	do {                                                                     \
		const struct ev evs_[] = { __VA_ARGS__ };                        \
		feed(w, evs_, sizeof(evs_) / sizeof(evs_[0]));                   \
	} while (0)

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

static void test_reverse_order_passes(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, REVERSE_FREEZE, THAW);
	assert_int_equal(order_judge(&w, true, "sda1", false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_string_equal(detail, "freeze order: loop0,sda1,nvme0n1p2,nvme0n1p1");
	/* a dump after a hang later in the cycle (freeze and thaw both finished): still a pass */
	assert_int_equal(order_judge(&w, true, "sda1", true, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
}

static void test_backing_frozen_first_fails(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, { "fs_freeze", "" }, { "freeze_super", "nvme0n1p1" }, { "freeze_super_ret", "" },
	     { "freeze_super", "sda1" }, { "freeze_super_ret", "" }, { "freeze_super", "loop0" },
	     { "freeze_super_ret", "" }, { "fs_freeze_done", "" }, THAW);
	assert_int_equal(order_judge(&w, true, "sda1", false, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "nvme0n1p1,sda1,loop0"));
	assert_non_null(strstr(detail, ": sda1 (holding"));       /* only the backing one */
	/* backing unknown: any block device before the loop one is suspect */
	assert_int_equal(order_judge(&w, true, "", false, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, ": nvme0n1p1,sda1 (holding"));
}

static void test_other_filesystem_before_loop_passes_with_known_backing(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	/* mounted after the loop filesystem, so frozen before it: not the image's filesystem */
	FEED(&w, { "fs_freeze", "" }, { "freeze_super", "nvme0n1p1" }, { "freeze_super_ret", "" },
	     { "freeze_super", "loop0" }, { "freeze_super_ret", "" }, { "freeze_super", "sda1" },
	     { "freeze_super_ret", "" }, { "fs_freeze_done", "" }, THAW);
	assert_int_equal(order_judge(&w, true, "sda1", false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
}

static void test_hang_freezing_loop_after_backing_fails(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	/* the SysRq-z dump of rig_fault=forward-freeze-order: loop0's freeze never returns */
	FEED(&w, { "fs_freeze", "" }, { "freeze_super", "nvme0n1p1" }, { "freeze_super_ret", "" },
	     { "freeze_super", "nvme0n1p2" }, { "freeze_super_ret", "" },
	     { "freeze_super", "sda1" }, { "freeze_super_ret", "" }, { "freeze_super", "loop0" });
	assert_false(w.freeze_done);
	assert_false(w.devs[3].returned);
	assert_int_equal(order_judge(&w, true, "sda1", true, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "sda1 (holding"));
	assert_non_null(strstr(detail, "freeze_super(loop0) did not return"));
}

static void test_hang_in_freeze_with_loop_mounted_fails(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	/* right order, but the freeze of the backing filesystem never returned */
	FEED(&w, { "fs_freeze", "" }, { "freeze_super", "loop0" }, { "freeze_super_ret", "" },
	     { "freeze_super", "sda1" });
	assert_int_equal(order_judge(&w, true, "sda1", true, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "hung with a loop filesystem mounted"));
	assert_non_null(strstr(detail, "freeze_super(sda1)"));
	/* the same trace read by the agent after a resume (not a hang) is judged on order only */
	assert_int_equal(order_judge(&w, true, "sda1", false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	/* no image filesystem on the board: a hang is not this verdict's business */
	assert_int_equal(order_judge(&w, true, NULL, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
}

static void test_hang_in_thaw_with_loop_mounted_fails(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, REVERSE_FREEZE, { "fs_thaw", "" }, { "thaw_super", "nvme0n1p1" });
	assert_int_equal(order_judge(&w, true, "sda1", true, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "filesystems_thaw() never returned"));
}

static void test_skips(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, REVERSE_FREEZE, THAW);
	assert_int_equal(order_judge(&w, false, "sda1", false, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "freeze_filesystems is not 1"));
	memset(&w, 0, sizeof(w));
	assert_int_equal(order_judge(&w, true, "sda1", true, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "no filesystems_freeze traced"));
	FEED(&w, { "fs_freeze", "" }, { "freeze_super", "sda1" }, { "freeze_super_ret", "" },
	     { "fs_freeze_done", "" });
	assert_int_equal(order_judge(&w, true, NULL, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "no loop filesystem frozen"));
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
		cmocka_unit_test(test_reverse_order_passes),
		cmocka_unit_test(test_backing_frozen_first_fails),
		cmocka_unit_test(test_other_filesystem_before_loop_passes_with_known_backing),
		cmocka_unit_test(test_hang_freezing_loop_after_backing_fails),
		cmocka_unit_test(test_hang_in_freeze_with_loop_mounted_fails),
		cmocka_unit_test(test_hang_in_thaw_with_loop_mounted_fails),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_trace_line_dev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
