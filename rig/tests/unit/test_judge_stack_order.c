/* The stack graph of a board's filesystems (judge/stack.h) and the order verdict on it
 * (judge/stack_order.h): every filesystem freezes before the filesystems beneath it, and all
 * thaw. Negative controls: a filesystem frozen after one beneath it fails, naming both; so does
 * one never thawed, and a hang with stacked filesystems mounted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "judge/knob.h"
#include "judge/stack.h"
#include "judge/stack_order.h"
#include "tests/unit/feed_window.h"
#include "tests/unit/feed_window.h"

/* boards/qemu.yaml: the loop filesystem's image lives on the xfs. */
static struct board_filesystem qemu_fs[] = {
	{ .name = "nvme-ext4", .type = "ext4", .device = "/dev/nvme0n1p1", .mount = "/mnt/nvme-ext4" },
	{ .name = "nvme-btrfs", .type = "btrfs", .device = "/dev/nvme0n1p2", .mount = "/mnt/nvme-btrfs" },
	{ .name = "sata-xfs", .type = "xfs", .device = "/dev/sda1", .mount = "/mnt/sata-xfs" },
	{ .name = "loop-ext4", .type = "ext4", .device = "/mnt/sata-xfs/loop-ext4.img",
	  .mount = "/mnt/loop-ext4" },
};
static const struct board qemu = { .name = "qemu", .filesystems = qemu_fs, .n_filesystems = 4 };

/* boards/qemu-stacked.yaml's stacks, with the s_ids the board reports (rig-dut fs-ids), and an
 * ext4 image inside the overlay: it lies above the overlay's upper (md-xfs) and lower
 * (crypt-ext4) filesystems, through the overlay, which the kernel does not freeze. */
static struct board_filesystem stacked_fs[] = {
	{ .name = "sata-xfs", .type = "xfs", .device = "/dev/sda1", .mount = "/mnt/sata-xfs" },
	{ .name = "crypt-ext4", .type = "ext4", .device = "/dev/mapper/rig-crypt",
	  .mount = "/mnt/crypt-ext4", .sid = "dm-0" },
	{ .name = "lvm-ext4", .type = "ext4", .device = "/dev/rig-vg/lv", .mount = "/mnt/lvm-ext4",
	  .sid = "dm-1" },
	{ .name = "snap-ext4", .type = "ext4", .device = "/dev/rig-vg/lv-snap",
	  .mount = "/mnt/snap-ext4", .sid = "dm-4" },
	{ .name = "md-xfs", .type = "xfs", .device = "/dev/md0", .mount = "/mnt/md-xfs/", .sid = "md0" },
	{ .name = "overlay", .type = "overlay", .device = "overlay", .mount = "/mnt/overlay",
	  .options = "lowerdir=/mnt/crypt-ext4/ovl-lower:/mnt/sata-xfs/ovl-lower2,"
		     "upperdir=/mnt/md-xfs/ovl/upper,workdir=/mnt/md-xfs/ovl/work" },
	{ .name = "ovl-loop", .type = "ext4", .device = "/mnt/overlay/ovl-loop.img",
	  .mount = "/mnt/ovl-loop", .sid = "loop1" },
};
static const struct board stacked = { .name = "qemu-stacked", .filesystems = stacked_fs,
				      .n_filesystems = 7 };

#define F(dev) { "freeze_super", dev }, { "freeze_super_ret", "" }
#define T(dev) { "thaw_super", dev }

/* The kernel's order on boards/qemu.yaml (newest superblock first). */
#define QEMU_FREEZE { "fs_freeze", "" }, F("loop0"), F("sda1"), F("nvme0n1p2"), F("nvme0n1p1"), \
	{ "fs_freeze_done", "" }
#define QEMU_THAW { "fs_thaw", "" }, T("nvme0n1p1"), T("nvme0n1p2"), T("sda1"), T("loop0"), \
	{ "fs_thaw_done", "" }
/* ... and on the stacked board: the overlay is passed by (no freeze_fs). */
#define STACKED_FREEZE { "fs_freeze", "" }, F("loop1"), F("md0"), F("dm-4"), F("dm-1"), \
	F("dm-0"), F("sda1"), { "fs_freeze_done", "" }
#define STACKED_THAW { "fs_thaw", "" }, T("sda1"), T("dm-0"), T("dm-1"), T("dm-4"), T("md0"), \
	T("loop1"), { "fs_thaw_done", "" }

static void test_graph(void **state)
{
	struct stack_graph g;

	(void)state;
	stack_graph_of(&qemu, &g);
	assert_int_equal(g.n, 4);
	assert_true(g.beneath[3][2]);                     /* loop-ext4 on sata-xfs */
	assert_false(g.beneath[2][3]);
	assert_false(g.beneath[0][1] || g.beneath[1][0] || g.beneath[3][0]);

	stack_graph_of(&stacked, &g);
	assert_true(g.beneath[5][1]);                     /* overlay: lowerdir on crypt-ext4 */
	assert_true(g.beneath[5][0]);                     /* its second lowerdir on sata-xfs */
	assert_true(g.beneath[5][4]);                     /* upperdir, workdir on md-xfs ("/" kept) */
	assert_true(g.beneath[6][5]);                     /* the image inside the overlay */
	assert_true(g.beneath[6][4] && g.beneath[6][1] && g.beneath[6][0]);   /* at any depth */
	/* block layers add no edge: LUKS, LVM and its snapshot, md lie beneath no filesystem */
	for (size_t u = 1; u <= 4; u++)
		for (size_t l = 0; l < g.n; l++)
			assert_false(g.beneath[u][l]);
	assert_int_equal(stack_frozen_through(&stacked, 5), 4);   /* writes land on md-xfs */
	assert_int_equal(stack_frozen_through(&stacked, 1), -1);
	assert_false(stack_type_freezable("overlay"));
	assert_true(stack_type_freezable("ext4"));
}

static void test_image_outside_the_board_has_no_edge(void **state)
{
	struct board_filesystem fs[] = {
		{ .name = "a", .type = "ext4", .device = "/srv/a.img", .mount = "/mnt/a" },
		{ .name = "b", .type = "xfs", .device = "/dev/sdb1", .mount = "/mnt/a-b" },
	};
	struct board b = { .filesystems = fs, .n_filesystems = 2 };
	struct stack_graph g;

	(void)state;
	stack_graph_of(&b, &g);
	assert_false(g.beneath[0][1]);                    /* "/mnt/a-b" does not hold "/srv/a.img" */
	fs[0].device = "/mnt/a-bc/a.img";                 /* a prefix of the name is not the mount */
	stack_graph_of(&b, &g);
	assert_false(g.beneath[0][1]);
}

static void test_top_down_passes(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, QEMU_FREEZE, QEMU_THAW);
	assert_int_equal(stack_order_judge(&w, &qemu, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_string_equal(detail, "freeze order: loop0,sda1,nvme0n1p2,nvme0n1p1 (1 stacked pair "
			    "frozen top down, all thawed)");
	FEED(&w, STACKED_FREEZE, STACKED_THAW);
	assert_int_equal(stack_order_judge(&w, &stacked, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_non_null(strstr(detail, "(3 stacked pairs frozen top down, all thawed)"));
	/* a dump after a hang later in the cycle (freeze and thaw both finished): still a pass */
	assert_int_equal(stack_order_judge(&w, &stacked, true, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
}

/* Negative control: the filesystem holding the image frozen first. */
static void test_lower_frozen_first_fails(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, { "fs_freeze", "" }, F("nvme0n1p1"), F("sda1"), F("loop0"), { "fs_freeze_done", "" },
	     QEMU_THAW);
	assert_int_equal(stack_order_judge(&w, &qemu, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_string_equal(detail, "freeze order: nvme0n1p1,sda1,loop0: sda1 (holding loop-ext4) "
			    "frozen before loop0");
	/* another filesystem first is no fault: it lies beneath nothing */
	FEED(&w, { "fs_freeze", "" }, F("nvme0n1p1"), F("loop0"), F("sda1"), { "fs_freeze_done", "" },
	     QEMU_THAW);
	assert_int_equal(stack_order_judge(&w, &qemu, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
}

/* Negative control on the stacked board: md0 (the overlay's upper) frozen before the image
 * filesystem inside the overlay; the LUKS filesystem (its lower) too. Each pair is named. */
static void test_stacked_lower_frozen_first_fails(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, { "fs_freeze", "" }, F("md0"), F("dm-0"), F("loop1"), F("dm-4"), F("dm-1"), F("sda1"),
	     { "fs_freeze_done", "" }, STACKED_THAW);
	assert_int_equal(stack_order_judge(&w, &stacked, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "md0 (holding ovl-loop) frozen before loop1"));
	assert_non_null(strstr(detail, "dm-0 (holding ovl-loop) frozen before loop1"));
	assert_null(strstr(detail, "sda1 (holding"));    /* sda1 froze after loop1: in order */
	/* without the board's s_ids the dm devices cannot be told apart: nothing is judged on them
	 * (crypt-ext4's device name is not its s_id) */
	stacked_fs[1].sid[0] = '\0';
	assert_null(knob_traced_dev(&w, &stacked_fs[1]));
	snprintf(stacked_fs[1].sid, sizeof(stacked_fs[1].sid), "dm-0");
	assert_non_null(knob_traced_dev(&w, &stacked_fs[1]));
}

static void test_never_thawed_fails(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, STACKED_FREEZE, { "fs_thaw", "" }, T("sda1"), T("dm-0"), T("dm-4"), T("md0"),
	     T("loop1"), { "fs_thaw_done", "" });
	assert_int_equal(stack_order_judge(&w, &stacked, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "lvm-ext4 (dm-1) frozen, never thawed"));
	/* a trace read before the thaw finished (a hang in it) is not judged on thaws */
	FEED(&w, STACKED_FREEZE, { "fs_thaw", "" }, T("sda1"));
	assert_int_equal(stack_order_judge(&w, &stacked, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
}

static void test_hangs(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	/* rig_fault=forward-freeze-order: xfs first, the loop filesystem's freeze never returns */
	FEED(&w, { "fs_freeze", "" }, F("nvme0n1p1"), F("nvme0n1p2"), F("sda1"),
	     { "freeze_super", "loop0" });
	assert_int_equal(stack_order_judge(&w, &qemu, true, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "sda1 (holding loop-ext4) frozen before loop0"));
	assert_non_null(strstr(detail, "freeze_super(loop0) did not return"));
	/* a hang in the freeze in order, with stacked filesystems mounted */
	FEED(&w, { "fs_freeze", "" }, F("loop0"), { "freeze_super", "sda1" });
	assert_int_equal(stack_order_judge(&w, &qemu, true, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "hung with stacked filesystems mounted"));
	assert_non_null(strstr(detail, "freeze_super(sda1)"));
	/* the same trace read by the agent after a resume (not a hang) is judged on order only */
	assert_int_equal(stack_order_judge(&w, &qemu, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	/* a hang in the thaw */
	FEED(&w, QEMU_FREEZE, { "fs_thaw", "" }, T("nvme0n1p1"));
	assert_int_equal(stack_order_judge(&w, &qemu, true, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "filesystems_thaw() never returned"));
	/* no stacked filesystem on the board: a hang is not this verdict's business */
	struct board flat = { .filesystems = qemu_fs, .n_filesystems = 3 };

	FEED(&w, { "fs_freeze", "" }, F("sda1"), { "freeze_super", "nvme0n1p2" });
	assert_int_equal(stack_order_judge(&w, &flat, true, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
}

static void test_skips(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, QEMU_FREEZE, QEMU_THAW);
	assert_int_equal(stack_order_judge(&w, &qemu, false, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "freeze_filesystems is not 1"));
	memset(&w, 0, sizeof(w));
	assert_int_equal(stack_order_judge(&w, &qemu, true, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "no filesystems_freeze traced"));
	/* the loop filesystem not frozen at all: knob-semantics' business, nothing to order */
	FEED(&w, { "fs_freeze", "" }, F("sda1"), { "fs_freeze_done", "" }, { "fs_thaw", "" },
	     T("sda1"), { "fs_thaw_done", "" });
	assert_int_equal(stack_order_judge(&w, &qemu, true, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "no stacked filesystem frozen"));
}

/* knob-semantics at 1 holds the stacked board to every filesystem but the overlay. */
static void test_knob_exempts_overlay(void **state)
{
	struct frozen_window w;
	char detail[512];

	(void)state;
	FEED(&w, STACKED_FREEZE, STACKED_THAW);
	assert_int_equal(knob_judge(&w, 1, "7.3.4-rig", &stacked, detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_non_null(strstr(detail, "all 6 filesystems frozen"));
	assert_non_null(strstr(detail, "overlays have no freeze of their own"));
	/* negative control: the md filesystem left unfrozen */
	FEED(&w, { "fs_freeze", "" }, F("loop1"), F("dm-4"), F("dm-1"), F("dm-0"), F("sda1"),
	     { "fs_freeze_done", "" });
	assert_int_equal(knob_judge(&w, 1, "7.3.4-rig", &stacked, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "did not freeze md-xfs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph),
		cmocka_unit_test(test_image_outside_the_board_has_no_edge),
		cmocka_unit_test(test_top_down_passes),
		cmocka_unit_test(test_lower_frozen_first_fails),
		cmocka_unit_test(test_stacked_lower_frozen_first_fails),
		cmocka_unit_test(test_never_thawed_fails),
		cmocka_unit_test(test_hangs),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_knob_exempts_overlay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
