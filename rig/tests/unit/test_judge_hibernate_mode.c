/* The hibernate-mode verdict (judge/hibernate_mode.c) on the QEMU board's own console recorded
 * in each mode (rig/tests/data/console/hibernate-MODE.log: shutdown, platform, reboot,
 * suspend-s3, test-resume; boards/qemu.yaml, kernel 7.3.4, 2026-12-07) and on what the engine
 * saw (how the board left and came back). Every path passes for the mode that asks for it and
 * fails for the others: a board that reset when asked to power off, powered off through S4 when
 * asked not to, restored an image after a power cut when asked to resume from RAM, and a mode
 * the kernel does not offer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "judge/hibernate_mode.h"
#include "replay_events.h"

static const struct board board = { .name = "qemu" };
static const struct judge_context ctx = { .board = &board, .kernel_version = "7.3.4",
					  .knob_freeze_filesystems = 1 };

static struct replayed rec;

/* The path of a recording (and, for a restore, the next boot's console) as the engine saw it. */
static struct hib_path seen(const char *log, const char *next_boot, enum hib_left left, bool cut,
			    enum hib_back back)
{
	struct hib_path p = { .left = left, .cut = cut, .back = back };

	release(&rec);
	memset(&rec, 0, sizeof(rec));
	replay(&rec, log);
	if (next_boot)
		replay(&rec, next_boot);
	hib_path_feed(&p, rec.ev, rec.n, 0);
	return p;
}

/* The hibernate-mode verdict of path p had the plan asked for mode (and a power cut). */
static enum results_verdict_result verdict(struct hib_path p, enum hibernate_mode mode,
					   bool cut_asked, char *detail, size_t size)
{
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	enum results_verdict_result r;

	p.asked = mode;
	p.cut_asked = cut_asked;
	assert_int_equal(judge_hibernate_mode(&ctx, &j, &p, &err), 0);
	assert_int_equal(j.n_verdicts, 1);
	assert_string_equal(j.verdicts[0].name, "hibernate-mode");
	r = j.verdicts[0].result;
	if (detail)
		snprintf(detail, size, "%s", j.verdicts[0].detail);
	judgement_free(&j);
	return r;
}

static void platform_is_s4_after_the_image(void **state)
{
	struct hib_path p = seen("hibernate-platform.log", "boot-clean.log", HIB_LEFT_OFF, false,
				 HIB_BACK_REPLY);
	char detail[512];

	(void)state;
	/* S4's preparation while the snapshot is taken does not count: only after the image */
	assert_true(p.image_saved && p.s4_after_save && !p.restart && !p.power_down);
	assert_string_equal(hib_went(&p), "s4");
	assert_string_equal(hib_came_back(&p), "restored");
	assert_int_equal(verdict(p, HIB_MODE_PLATFORM, false, NULL, 0), RESULTS_VERDICT_PASS);
	/* the same evidence when shutdown was asked: the kernel went through the firmware */
	assert_int_equal(verdict(p, HIB_MODE_SHUTDOWN, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "expected a power-off (not S4, not a reset)"));
	assert_non_null(strstr(detail, "happened: went s4"));
	assert_int_equal(verdict(p, HIB_MODE_REBOOT, false, NULL, 0), RESULTS_VERDICT_FAIL);
}

static void reboot_is_the_kernels_reset(void **state)
{
	struct hib_path p = seen("hibernate-reboot.log", "boot-clean.log", HIB_LEFT_OFF, false,
				 HIB_BACK_REPLY);

	(void)state;
	assert_true(p.restart && !p.s4_after_save);
	assert_string_equal(hib_went(&p), "reboot");
	assert_int_equal(verdict(p, HIB_MODE_REBOOT, false, NULL, 0), RESULTS_VERDICT_PASS);
	assert_int_equal(verdict(p, HIB_MODE_SHUTDOWN, false, NULL, 0), RESULTS_VERDICT_FAIL);
	assert_int_equal(verdict(p, HIB_MODE_PLATFORM, false, NULL, 0), RESULTS_VERDICT_FAIL);
	/* a board that came back with a fresh boot restored nothing, whatever the mode */
	p.back = HIB_BACK_FRESH_BOOT;
	assert_string_equal(hib_came_back(&p), "fresh-boot");
	assert_int_equal(verdict(p, HIB_MODE_REBOOT, false, NULL, 0), RESULTS_VERDICT_FAIL);
	assert_int_equal(hib_transition(&p), JUDGE_HIB_NOT_RESTORED);
	/* unless the plan discarded the image (resume: no): then that is the path */
	p.discard_asked = true;
	assert_int_equal(verdict(p, HIB_MODE_REBOOT, false, NULL, 0), RESULTS_VERDICT_PASS);
}

static void shutdown_is_a_power_off(void **state)
{
	struct hib_path p = seen("hibernate-shutdown.log", "boot-clean.log", HIB_LEFT_OFF, false,
				 HIB_BACK_REPLY);

	(void)state;
	/* S5's preparation, then the kernel's power-off */
	assert_true(p.image_saved && p.power_down && !p.s4_after_save && !p.restart);
	assert_string_equal(hib_went(&p), "power-off");
	assert_int_equal(verdict(p, HIB_MODE_SHUTDOWN, false, NULL, 0), RESULTS_VERDICT_PASS);
	assert_int_equal(verdict(p, HIB_MODE_PLATFORM, false, NULL, 0), RESULTS_VERDICT_FAIL);
	assert_int_equal(verdict(p, HIB_MODE_REBOOT, false, NULL, 0), RESULTS_VERDICT_FAIL);
	/* a board that switched off and said nothing more (a console without the line) */
	p.power_down = false;
	assert_string_equal(hib_went(&p), "off");
	assert_int_equal(verdict(p, HIB_MODE_SHUTDOWN, false, NULL, 0), RESULTS_VERDICT_PASS);
}

static void hybrid_sleep_resumes_from_ram_or_restores_after_a_cut(void **state)
{
	struct hib_path ram = seen("hibernate-suspend-s3.log", NULL, HIB_LEFT_S3, false,
				   HIB_BACK_REPLY);
	struct hib_path cut = seen("hibernate-suspend-s3.log", "boot-clean.log", HIB_LEFT_S3, true,
				   HIB_BACK_REPLY);
	char detail[512];

	(void)state;
	assert_true(ram.image_saved && !ram.s4_after_save && !ram.power_down);
	assert_string_equal(hib_went(&ram), "s3");
	assert_string_equal(hib_came_back(&ram), "ram");
	assert_int_equal(verdict(ram, HIB_MODE_SUSPEND, false, NULL, 0), RESULTS_VERDICT_PASS);
	assert_int_equal(hib_transition(&ram), JUDGE_HIB_RESTORED);
	assert_string_equal(hib_came_back(&cut), "restored");
	assert_int_equal(verdict(cut, HIB_MODE_SUSPEND, true, NULL, 0), RESULTS_VERDICT_PASS);
	/* inject: power-cut -- a resume from RAM was asked, the image was restored instead */
	assert_int_equal(verdict(cut, HIB_MODE_SUSPEND, false, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "back from RAM without a restore"));
	assert_non_null(strstr(detail, "power cut by the rig, came back restored"));
	/* inject: early-wake -- a power cut was asked, the board was back from RAM */
	assert_int_equal(verdict(ram, HIB_MODE_SUSPEND, true, detail, sizeof(detail)),
			 RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(detail, "came back ram"));
	/* the kernel fell back to a power-off (its S3 failed): not the hybrid sleep asked for */
	ram.left = HIB_LEFT_OFF;
	assert_int_equal(verdict(ram, HIB_MODE_SUSPEND, false, NULL, 0), RESULTS_VERDICT_FAIL);
	/* a hybrid sleep asked in shutdown mode */
	assert_int_equal(verdict(cut, HIB_MODE_SHUTDOWN, false, NULL, 0), RESULTS_VERDICT_FAIL);
}

static void test_resume_restores_in_place(void **state)
{
	struct hib_path p = seen("hibernate-test-resume.log", NULL, HIB_LEFT_NOT, false,
				 HIB_BACK_REPLY);

	(void)state;
	assert_true(p.image_saved && p.image_loaded && !p.booted);
	assert_string_equal(hib_went(&p), "stayed");
	assert_string_equal(hib_came_back(&p), "in-place");
	assert_int_equal(verdict(p, HIB_MODE_TEST_RESUME, false, NULL, 0), RESULTS_VERDICT_PASS);
	p.asked = HIB_MODE_TEST_RESUME;
	assert_int_equal(hib_transition(&p), JUDGE_HIB_RESTORED);
	/* the board never left: any other mode failed to hibernate */
	p.asked = HIB_MODE_SHUTDOWN;
	assert_int_equal(hib_transition(&p), JUDGE_HIB_STAYED);
	assert_int_equal(verdict(p, HIB_MODE_SHUTDOWN, false, NULL, 0), RESULTS_VERDICT_FAIL);
	/* nothing read back: test_resume that wrote no image did not hibernate either */
	p.image_loaded = false;
	assert_string_equal(hib_came_back(&p), "returned");
	assert_int_equal(verdict(p, HIB_MODE_TEST_RESUME, false, NULL, 0), RESULTS_VERDICT_FAIL);
}

/* Events before the command (a previous cycle's) are not this hibernation's. */
static void only_events_since_the_command_count(void **state)
{
	struct hib_path p = { .left = HIB_LEFT_OFF };

	(void)state;
	release(&rec);
	memset(&rec, 0, sizeof(rec));
	replay(&rec, "hibernate-platform.log");
	hib_path_feed(&p, rec.ev, rec.n, rec.ev[rec.n - 1].host_ts + 1);
	assert_false(p.image_saved || p.s4_after_save);
	assert_string_equal(hib_went(&p), "off");
}

static void a_mode_the_kernel_does_not_offer_is_refused(void **state)
{
	struct hib_path p = { .asked = HIB_MODE_PLATFORM, .left = HIB_LEFT_NOT };
	struct results_hibernation row;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	struct ev_sleep s;
	const char *reply[] = {
		"result=1 error=mode-not-offered asked=platform mode=shutdown "
		"offered=shutdown,reboot,suspend,test_resume"
	};

	(void)state;
	ev_parse_sleep(reply, 1, &s);
	hib_path_reply(&p, s.line);
	assert_true(p.refused);
	assert_int_equal(judge_hibernation(&ctx, &j, &s, &p, &err), 0);
	assert_int_equal(j.n_verdicts, 2);
	assert_string_equal(j.verdicts[0].name, "hibernate");
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_FAIL);
	assert_string_equal(j.verdicts[1].name, "hibernate-mode");
	assert_int_equal(j.verdicts[1].result, RESULTS_VERDICT_FAIL);
	assert_non_null(strstr(j.verdicts[1].detail, "does not offer hibernation mode platform "
			       "(/sys/power/disk offers: shutdown,reboot,suspend,test_resume): "
			       "refused on the board, no fallback to its own mode (shutdown)"));
	judgement_free(&j);
	hib_path_record(&p, &row);
	assert_string_equal(row.asked, "platform");
	assert_string_equal(row.kernel_mode, "shutdown");   /* what it would have done */
	assert_string_equal(row.went, "stayed");
	assert_string_equal(row.came_back, "refused");
	assert_false(row.matched);
}

static void the_stored_row_says_what_was_asked_and_what_happened(void **state)
{
	struct hib_path p = seen("hibernate-suspend-s3.log", "boot-clean.log", HIB_LEFT_S3, true,
				 HIB_BACK_REPLY);
	struct results_hibernation row;
	struct judgement j = { 0 };
	struct rig_err err = { 0 };
	struct ev_sleep s;
	const char *reply[] = { "result=0 mode=suspend restored=1 boot_id=x" };

	(void)state;
	ev_parse_sleep(reply, 1, &s);
	p.asked = HIB_MODE_SUSPEND;
	p.cut_asked = true;
	hib_path_reply(&p, s.line);
	hib_path_record(&p, &row);
	assert_string_equal(row.asked, "suspend");
	assert_string_equal(row.kernel_mode, "suspend");
	assert_true(row.power_cut_asked && row.power_cut && row.matched);
	assert_string_equal(row.went, "s3");
	assert_string_equal(row.came_back, "restored");
	/* both verdicts; a discarded image leaves the hibernate verdict to the verification */
	assert_int_equal(judge_hibernation(&ctx, &j, &s, &p, &err), 0);
	assert_int_equal(j.n_verdicts, 2);
	assert_int_equal(j.verdicts[0].result, RESULTS_VERDICT_PASS);
	assert_int_equal(j.verdicts[1].result, RESULTS_VERDICT_PASS);
	judgement_free(&j);
	p.discard_asked = true;
	assert_int_equal(judge_hibernation(&ctx, &j, &s, &p, &err), 0);
	assert_int_equal(j.n_verdicts, 1);
	assert_string_equal(j.verdicts[0].name, "hibernate-mode");
	judgement_free(&j);
}

static int teardown(void **state)
{
	(void)state;
	release(&rec);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(platform_is_s4_after_the_image),
		cmocka_unit_test(reboot_is_the_kernels_reset),
		cmocka_unit_test(shutdown_is_a_power_off),
		cmocka_unit_test(hybrid_sleep_resumes_from_ram_or_restores_after_a_cut),
		cmocka_unit_test(test_resume_restores_in_place),
		cmocka_unit_test(only_events_since_the_command_count),
		cmocka_unit_test(a_mode_the_kernel_does_not_offer_is_refused),
		cmocka_unit_test(the_stored_row_says_what_was_asked_and_what_happened),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
