/* The knob-semantics verdict (judge/knob.h) on rig-dut trace-read excerpts: knob 0 froze
 * nothing (or only what the kernel always freezes), knob 1 froze every board filesystem; the
 * reversed check of upstream 6.18 fails both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/evidence.h"
#include "judge/judge.h"
#include "judge/knob.h"

static struct board_filesystem filesystems[] = {
	{ .name = "nvme-ext4", .type = "ext4", .device = "/dev/nvme0n1p1", .mount = "/mnt/nvme-ext4" },
	{ .name = "nvme-btrfs", .type = "btrfs", .device = "/dev/nvme0n1p2", .mount = "/mnt/nvme-btrfs" },
	{ .name = "sata-xfs", .type = "xfs", .device = "/dev/sda1", .mount = "/mnt/sata-xfs" },
	{ .name = "loop-ext4", .type = "ext4", .device = "/mnt/sata-xfs/loop-ext4.img",
	  .mount = "/mnt/loop-ext4" },
};
static const struct board board = { .name = "qemu", .filesystems = filesystems, .n_filesystems = 4 };

/* rig-dut trace-read on boards/qemu.yaml, default kernel 7.3.4-rig, freeze_filesystems=0, one
 * deep suspend (tests/e2e/plans/knob0.yaml; run 20261204-174550): filesystems_freeze() runs
 * (6.18+) and freezes nothing; filesystems_thaw() still calls thaw_super() on every superblock. */
static const char *const knob0_default[] = {
	"fs_freeze 40043269000 ",
	"fs_freeze_done 40048821000 ",
	"fs_thaw 44604064000 ",
	"thaw_super 44605792000 nvme0n1p1",
	"thaw_super 44606344000 nvme0n1p2",
	"thaw_super 44607067000 sda1",
	"thaw_super 44607089000 loop0",
	"fs_thaw_done 44607109000 ",
};

/* The same plan on the fault kernel with rig_fault=reverse-knob-check (run 20261204-174637):
 * everything frozen, newest superblock first, as 6.18.0 did. */
static const char *const knob0_reversed[] = {
	"fs_freeze 13285161000 ",
	"freeze_super 13287031000 loop0",
	"freeze_super_ret 13323321000 ",
	"freeze_super 13325184000 sda1",
	"freeze_super_ret 13375079000 ",
	"freeze_super 13375451000 nvme0n1p2",
	"freeze_super_ret 13387694000 ",
	"freeze_super 13387782000 nvme0n1p1",
	"freeze_super_ret 13393788000 ",
	"fs_freeze_done 13393987000 ",
	"fs_thaw 19009784000 ",
	"thaw_super 19010058000 nvme0n1p1",
	"thaw_super 19023284000 nvme0n1p2",
	"thaw_super 19033497000 sda1",
	"thaw_super 19007500288 loop0",
	"fs_thaw_done 19243679000 ",
};

/* freeze_filesystems=1, the same one suspend on the default kernel (run 20261204-182055): all
 * four frozen, newest superblock first. */
static const char *const knob1_default[] = {
	"fs_freeze 13463807000 ",
	"freeze_super 13465885000 loop0",
	"freeze_super_ret 13486438000 ",
	"freeze_super 13487182000 sda1",
	"freeze_super_ret 13517178000 ",
	"freeze_super 13517407000 nvme0n1p2",
	"freeze_super_ret 13524574000 ",
	"freeze_super 13524624000 nvme0n1p1",
	"freeze_super_ret 13527972000 ",
	"fs_freeze_done 13528285000 ",
	"fs_thaw 17415757000 ",
	"thaw_super 17416038000 nvme0n1p1",
	"thaw_super 17421023000 nvme0n1p2",
	"thaw_super 17427059000 sda1",
	"thaw_super 17428584000 loop0",
	"fs_thaw_done 17695378000 ",
};

/* freeze_filesystems=1 on the fault kernel with rig_fault=reverse-knob-check (run
 * 20261204-182115): only FS_POWER_FREEZE filesystems would be frozen, and the board has none. */
static const char *const knob1_reversed[] = {
	"fs_freeze 12510354000 ",
	"fs_freeze_done 12514750000 ",
	"fs_thaw 15236664000 ",
	"thaw_super 15238613000 nvme0n1p1",
	"thaw_super 15238991000 nvme0n1p2",
	"thaw_super 15242320000 sda1",
	"thaw_super 15242344000 loop0",
	"fs_thaw_done 15242359000 ",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static enum results_verdict_result judge(const char *const *lines, size_t n, int knob,
					 const char *kernel, char *detail, size_t size)
{
	struct frozen_window w;

	ev_parse_trace(lines, n, &w);
	return knob_judge(&w, knob, kernel, &board, detail, size);
}

static void test_knob0_nothing_frozen_passes(void **state)
{
	char detail[512];

	(void)state;
	assert_int_equal(judge(knob0_default, N(knob0_default), 0, "7.3.4-rig", detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_string_equal(detail, "freeze_filesystems=0, kernel 7.3.4-rig: filesystems_freeze() froze nothing");
}

static void test_knob0_reversed_check_fails(void **state)
{
	char detail[512];

	(void)state;
	assert_int_equal(judge(knob0_reversed, N(knob0_reversed), 0, "7.3.4-rig", detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_string_equal(detail, "freeze_filesystems=0, kernel 7.3.4-rig: the kernel froze "
			    "loop0,sda1,nvme0n1p2,nvme0n1p1 (the knob says none; always frozen: none of them)");
}

static void test_knob0_efivarfs_is_always_frozen(void **state)
{
	const char *const lines[] = { "fs_freeze 100 ", "freeze_super 200 efivarfs", "freeze_super_ret 300 ",
				      "fs_freeze_done 400 ", "fs_thaw 500 ", "thaw_super 600 efivarfs",
				      "fs_thaw_done 700 " };
	const char *const with_sda[] = { "fs_freeze 100 ", "freeze_super 200 efivarfs", "freeze_super_ret 300 ",
					 "freeze_super 310 sda1", "freeze_super_ret 320 ",
					 "fs_freeze_done 400 " };
	char detail[512];

	(void)state;
	assert_int_equal(judge(lines, N(lines), 0, "6.18.1", detail, sizeof(detail)), RESULTS_VERDICT_PASS);
	assert_string_equal(detail, "freeze_filesystems=0, kernel 6.18.1: filesystems_freeze() froze only "
			    "efivarfs (always frozen: FS_POWER_FREEZE)");
	/* before 6.18 nothing has FS_POWER_FREEZE: efivarfs frozen at knob 0 is a broken promise */
	assert_int_equal(judge(lines, N(lines), 0, "6.17.9", detail, sizeof(detail)), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "the kernel froze efivarfs"));
	/* an unknown kernel gets no exemption */
	assert_int_equal(judge(lines, N(lines), 0, NULL, detail, sizeof(detail)), RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "kernel unknown"));
	/* efivarfs does not excuse the others */
	assert_int_equal(judge(with_sda, N(with_sda), 0, "7.3.4-rig", detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "froze sda1 (the knob says none; always frozen: efivarfs)"));
}

static void test_knob0_without_filesystems_freeze(void **state)
{
	char detail[512];

	(void)state;
	/* before 6.18 the knob at 0 skips the call altogether */
	assert_int_equal(judge(NULL, 0, 0, "6.17.2", detail, sizeof(detail)), RESULTS_VERDICT_PASS);
	assert_non_null(strstr(detail, "filesystems_freeze() not called"));
	/* from 6.18 every suspend calls it: a trace without it is no evidence */
	assert_int_equal(judge(NULL, 0, 0, "7.3.4-rig", detail, sizeof(detail)), RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(detail, "no evidence"));
}

static void test_knob0_userspace_freeze_is_not_the_kernels(void **state)
{
	/* fsfreeze -f before the suspend (the owner plan): outside filesystems_freeze() */
	const char *const lines[] = { "freeze_super 100 nvme0n1p1", "freeze_super_ret 200 ",
				      "fs_freeze 300 ", "fs_freeze_done 400 ", "fs_thaw 500 ",
				      "fs_thaw_done 600 " };
	char detail[512];

	(void)state;
	assert_int_equal(judge(lines, N(lines), 0, "7.3.4-rig", detail, sizeof(detail)), RESULTS_VERDICT_PASS);
}

static void test_knob1_all_frozen_passes(void **state)
{
	char detail[512];

	(void)state;
	assert_int_equal(judge(knob1_default, N(knob1_default), 1, "7.3.4-rig", detail, sizeof(detail)),
			 RESULTS_VERDICT_PASS);
	assert_string_equal(detail, "freeze_filesystems=1, kernel 7.3.4-rig: all 4 filesystems frozen: "
			    "loop0,sda1,nvme0n1p2,nvme0n1p1");
}

static void test_knob1_reversed_check_fails(void **state)
{
	/* the reversed check at knob 1 freezes only FS_POWER_FREEZE filesystems: none here */
	char detail[512];

	(void)state;
	assert_int_equal(judge(knob1_reversed, N(knob1_reversed), 1, "7.3.4-rig", detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_string_equal(detail, "freeze_filesystems=1, kernel 7.3.4-rig: the kernel did not freeze "
			    "nvme-ext4,nvme-btrfs,sata-xfs,loop-ext4 (froze: nothing)");
	/* one left out (rig_fault=skip-xfs-freeze) */
	{
		const char *const no_xfs[] = { "fs_freeze 100 ", "freeze_super 110 loop0", "freeze_super_ret 120 ",
					       "freeze_super 130 nvme0n1p2", "freeze_super_ret 140 ",
					       "freeze_super 150 nvme0n1p1", "freeze_super_ret 160 ",
					       "fs_freeze_done 170 " };

		assert_int_equal(judge(no_xfs, N(no_xfs), 1, "7.3.4-rig", detail, sizeof(detail)),
				 RESULTS_VERDICT_FAIL);
		assert_non_null(strstr(detail, "did not freeze sata-xfs (froze: loop0,nvme0n1p2,nvme0n1p1)"));
	}
}

static void test_skips(void **state)
{
	char detail[512];

	(void)state;
	/* knob 1, no call traced: no evidence either way (stall says the same) */
	assert_int_equal(judge(NULL, 0, 1, "7.3.4-rig", detail, sizeof(detail)), RESULTS_VERDICT_SKIP);
	/* a kernel without the knob promises nothing */
	assert_int_equal(judge(knob1_default, N(knob1_default), -1, "6.15", detail, sizeof(detail)),
			 RESULTS_VERDICT_SKIP);
	assert_string_equal(detail, "kernel 6.15 has no freeze_filesystems knob: nothing promised");
}

/* Through judge_after_resume: the verdict is stored once per cycle, with its failure message. */
static void test_after_resume(void **state)
{
	struct judge_context c = { .board = &board, .kernel_version = "7.3.4-rig",
				   .knob_freeze_filesystems = 0 };
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	struct frozen_window w;
	const struct judge_verdict *v = NULL;

	(void)state;
	ev_parse_trace(knob0_reversed, N(knob0_reversed), &w);
	{
		struct judge_resume r = { .trace = &w, .owner_frozen = -1 };

		assert_int_equal(judge_after_resume(&c, &j, &r, &err), 0);
	}
	for (size_t i = 0; i < j.n_verdicts; i++)
		if (strcmp(j.verdicts[i].name, "knob-semantics") == 0) {
			assert_null(v);
			v = &j.verdicts[i];
		}
	assert_non_null(v);
	assert_null(v->filesystem);
	assert_int_equal(v->result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(v->detail, "froze loop0,sda1,nvme0n1p2,nvme0n1p1"));
	judgement_free(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knob0_nothing_frozen_passes),
		cmocka_unit_test(test_knob0_reversed_check_fails),
		cmocka_unit_test(test_knob0_efivarfs_is_always_frozen),
		cmocka_unit_test(test_knob0_without_filesystems_freeze),
		cmocka_unit_test(test_knob0_userspace_freeze_is_not_the_kernels),
		cmocka_unit_test(test_knob1_all_frozen_passes),
		cmocka_unit_test(test_knob1_reversed_check_fails),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_after_resume),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
