/* Host CPU starvation in the engine (engine/host_cpu.h, engine/starvation.h) and its storage
 * (results schema 5, rig results): the sampler over a directory laid out like /proc (a QEMU's
 * threads, pressure/cpu, each of them missing or cut short) and over this process's real /proc;
 * a cycle's status, verdicts and the run's totals after a starved and a not-starved window; the
 * figures stored, read back as JSON and printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console/events.h"
#include "engine/ctx.h"
#include "engine/host_cpu.h"
#include "engine/starvation.h"
#include "results/db.h"
#include "results/format.h"
#include "results/query.h"

#define SOFT_LOCKUP "watchdog: BUG: soft lockup - CPU#0 stuck for 31s! [rcu_preempt:16]"

struct fixture {
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_engine_starvation.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int ret = nftw(f->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

	free(f);
	return ret;
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[512], sub[512];
	FILE *fp;

	/* the parents, as /proc has them */
	for (const char *p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
		snprintf(sub, sizeof(sub), "%s/%.*s", dir, (int)(p - rel), rel);
		mkdir(sub, 0755);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_true(fputs(text, fp) >= 0);
	assert_int_equal(fclose(fp), 0);
}

/* A QEMU with three threads (main loop, two vCPUs) and the host's PSI. */
static void fake_proc(const char *dir)
{
	write_file(dir, "4242/task/4242/schedstat", "1000000000 500000000 10\n");
	write_file(dir, "4242/task/4243/schedstat", "20000000000 15000000000 900\n");
	write_file(dir, "4242/task/4244/schedstat", "19000000000 16200000000 880\n");
	write_file(dir, "pressure/cpu", "some avg10=80.00 avg60=70.00 avg300=20.00 total=50400000\n"
					"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
}

static void test_sample_sums_qemu_threads_and_psi(void **state)
{
	struct fixture *f = *state;
	struct host_cpu_sample s;

	fake_proc(f->dir);
	host_cpu_sample(f->dir, true, 4242, &s);
	assert_true(s.taken && s.on_host && s.qemu_known && s.psi_known);
	assert_int_equal(s.pid, 4242);
	assert_float_equal(s.qemu_run_s, 40, 1e-9);
	assert_float_equal(s.qemu_wait_s, 31.7, 1e-9);
	assert_float_equal(s.psi_some_s, 50.4, 1e-9);
	assert_true(s.at > 0);
}

static void test_sample_missing_files_are_unavailable(void **state)
{
	struct fixture *f = *state;
	char path[256];
	struct host_cpu_sample s;

	fake_proc(f->dir);
	host_cpu_sample(f->dir, true, 999, &s);   /* no such process */
	assert_true(s.taken && !s.qemu_known && s.psi_known);
	snprintf(path, sizeof(path), "%s/pressure/cpu", f->dir);
	assert_int_equal(unlink(path), 0);        /* a kernel without CONFIG_PSI */
	host_cpu_sample(f->dir, true, 4242, &s);
	assert_true(s.qemu_known && !s.psi_known);
	host_cpu_sample(f->dir, true, 0, &s);     /* QEMU not running */
	assert_true(s.taken && s.on_host && !s.qemu_known && !s.psi_known);
	assert_int_equal(s.pid, 0);
}

static void test_sample_cut_short_thread_makes_qemu_unknown(void **state)
{
	struct fixture *f = *state;
	struct host_cpu_sample s;

	fake_proc(f->dir);
	write_file(f->dir, "4242/task/4244/schedstat", "19000000000 1620");
	host_cpu_sample(f->dir, true, 4242, &s);
	assert_false(s.qemu_known);               /* never a sum that left a thread out */
	assert_true(s.psi_known);
}

static void test_sample_real_hardware_reads_nothing(void **state)
{
	struct fixture *f = *state;
	struct host_cpu_sample s;

	fake_proc(f->dir);
	host_cpu_sample(f->dir, false, 4242, &s);
	assert_true(s.taken && !s.on_host && !s.qemu_known && !s.psi_known);
	assert_int_equal(s.pid, 0);
}

/* This very process under the real /proc: its threads' schedstat parses (the format the kernel
 * prints here, not only the one the fake holds). */
static void test_sample_this_process(void **state)
{
	struct host_cpu_sample s;

	(void)state;
	host_cpu_sample("/proc", true, (long)getpid(), &s);
	assert_true(s.qemu_known);
	assert_true(s.qemu_run_s > 0);
}

/* ---- a cycle's status after its window -------------------------------------------------- */

struct cycle_fixture {
	struct session s;
	struct engine_totals totals;
	struct engine_ctx ctx;
	struct results_cycle *cyc;
};

static void cycle_setup(struct cycle_fixture *cf, bool on_host)
{
	struct results_cycle_info info = { .idx = 0, .step_kind = "suspend",
					   .step_desc = "suspend deep rtc 5", .console_from = -1 };
	struct rig_err err;

	memset(cf, 0, sizeof(*cf));
	cf->ctx.s = &cf->s;
	cf->ctx.totals = &cf->totals;
	cf->ctx.host_from = (struct host_cpu_sample){
		.taken = true, .at = 1000, .on_host = on_host, .pid = on_host ? 4242 : 0,
		.qemu_known = on_host, .qemu_run_s = 100, .qemu_wait_s = 10, .psi_known = on_host,
		.psi_some_s = 20,
	};
	cf->cyc = results_cycle_begin(1, &info, &err);
	assert_non_null(cf->cyc);
}

static struct host_cpu_sample end_sample(double wait_s)
{
	return (struct host_cpu_sample){
		.taken = true, .at = 1063, .on_host = true, .pid = 4242, .qemu_known = true,
		.qemu_run_s = 140, .qemu_wait_s = 10 + wait_s, .psi_known = true, .psi_some_s = 70.4,
	};
}

/* A resume that logged a soft lockup: clean-resume failed, counted as the store counts it. */
static void soft_lockup_cycle(struct cycle_fixture *cf)
{
	struct rig_err err;

	assert_int_equal(results_cycle_add_event(cf->cyc, kevent_kind_name(KEV_SOFT_LOCKUP), 270.7,
						 1.0, SOFT_LOCKUP, &err), 0);
	assert_int_equal(results_cycle_add_verdict(cf->cyc, "suspend", NULL, RESULTS_VERDICT_PASS,
						   NULL, "ok", &err), 0);
	assert_int_equal(results_cycle_add_verdict(cf->cyc, "clean-resume", NULL,
						   RESULTS_VERDICT_FAIL, NULL, SOFT_LOCKUP, &err), 0);
	cf->totals.pass = 1;
	cf->totals.fail = 1;
}

/* A QEMU board's cycle whose resume logged a soft lockup (and, with data_loss, lost acknowledged
 * records too), judged over a 63 s window in which QEMU's threads waited wait_s. */
static enum results_cycle_status soft_lockup_after(struct cycle_fixture *cf, double wait_s,
						  bool data_loss)
{
	struct host_cpu_sample to = end_sample(wait_s);
	enum results_cycle_status status = RESULTS_CYCLE_FAIL;
	struct rig_err err;

	cycle_setup(cf, true);
	soft_lockup_cycle(cf);
	if (data_loss) {
		assert_int_equal(results_cycle_add_verdict(cf->cyc, "no-loss", "ext4",
							   RESULTS_VERDICT_FAIL, NULL,
							   "22 acknowledged records lost", &err), 0);
		cf->totals.fail++;
	}
	assert_int_equal(starvation_apply(&cf->ctx, cf->cyc, &to, false, &status, &err), 0);
	return status;
}

static void test_starved_soft_lockup_cycle_becomes_infra(void **state)
{
	struct cycle_fixture cf;

	(void)state;
	assert_int_equal(soft_lockup_after(&cf, 41.2, false), RESULTS_CYCLE_INFRA);
	assert_int_equal(cf.totals.fail, 0);
	assert_int_equal(cf.totals.skip, 1);
	assert_int_equal(cf.totals.infra, 1);
	assert_int_equal(cf.totals.starved, 1);
	assert_int_equal(cf.cyc->n_verdicts, 3);
	assert_int_equal(cf.cyc->verdicts[0].result, RESULTS_VERDICT_PASS);
	assert_int_equal(cf.cyc->verdicts[1].result, RESULTS_VERDICT_SKIP);
	assert_non_null(strstr(cf.cyc->verdicts[1].detail, "not judged: the host starved"));
	assert_non_null(strstr(cf.cyc->verdicts[1].detail, SOFT_LOCKUP));
	assert_string_equal(cf.cyc->verdicts[2].name, "host-cpu");
	assert_int_equal(cf.cyc->verdicts[2].result, RESULTS_VERDICT_ERROR);
	assert_string_equal(cf.cyc->verdicts[2].detail,
			    "host CPU starvation, not a kernel verdict: QEMU's threads waited 41.2 s "
			    "of 63.0 s on the host run queue (65 %); host CPU pressure 80 %; guest: "
			    SOFT_LOCKUP);
	assert_true(cf.cyc->host_cpu.recorded && cf.cyc->host_cpu.applicable);
	assert_true(cf.cyc->host_cpu.starved && cf.cyc->host_cpu.reclassified);
	assert_string_equal(cf.cyc->host_cpu.window_end, "end");
	assert_float_equal(cf.cyc->host_cpu.window_s, 63, 1e-9);
	assert_float_equal(cf.cyc->host_cpu.qemu_wait_s, 41.2, 1e-9);
	results_cycle_free(cf.cyc);
}

/* The negative control: the same cycle on a host that was not starved keeps its failure. */
static void test_not_starved_soft_lockup_stays_fail(void **state)
{
	struct cycle_fixture cf;

	(void)state;
	assert_int_equal(soft_lockup_after(&cf, 1.5, false), RESULTS_CYCLE_FAIL);
	assert_int_equal(cf.totals.fail, 1);
	assert_int_equal(cf.totals.infra, 0);
	assert_int_equal(cf.totals.starved, 0);
	assert_int_equal(cf.cyc->n_verdicts, 2);
	assert_int_equal(cf.cyc->verdicts[1].result, RESULTS_VERDICT_FAIL);
	assert_string_equal(cf.cyc->verdicts[1].detail, SOFT_LOCKUP);
	assert_true(cf.cyc->host_cpu.recorded && !cf.cyc->host_cpu.starved);
	assert_false(cf.cyc->host_cpu.reclassified);
	assert_string_equal(cf.cyc->host_cpu.detail, "QEMU's threads waited 1.5 s of 63.0 s on the "
			    "host run queue (2 %); host CPU pressure 80 %");
	results_cycle_free(cf.cyc);
}

static void test_starved_data_loss_stays_fail(void **state)
{
	struct cycle_fixture cf;

	(void)state;
	assert_int_equal(soft_lockup_after(&cf, 60, true), RESULTS_CYCLE_FAIL);
	assert_int_equal(cf.totals.fail, 2);
	assert_int_equal(cf.cyc->n_verdicts, 3);
	assert_int_equal(cf.cyc->verdicts[1].result, RESULTS_VERDICT_FAIL);
	assert_true(cf.cyc->host_cpu.starved);       /* recorded as starved, but not reclassified */
	assert_false(cf.cyc->host_cpu.reclassified);
	results_cycle_free(cf.cyc);
}

static void test_starved_hang_becomes_infra(void **state)
{
	struct cycle_fixture cf;
	struct host_cpu_sample to = end_sample(41.2);
	enum results_cycle_status status = RESULTS_CYCLE_HANG;
	struct rig_err err;

	(void)state;
	cycle_setup(&cf, true);
	assert_int_equal(results_cycle_set_hang(cf.cyc, "resume",
						"clocksource: Watchdog hpet read timed out\n", &err), 0);
	cf.totals.hangs = 1;
	assert_int_equal(starvation_apply(&cf.ctx, cf.cyc, &to, true, &status, &err), 0);
	assert_int_equal(status, RESULTS_CYCLE_INFRA);
	assert_int_equal(cf.totals.hangs, 0);
	assert_int_equal(cf.totals.infra, 1);
	assert_string_equal(cf.cyc->host_cpu.window_end, "hang");
	assert_string_equal(cf.cyc->verdicts[0].detail,
			    "host CPU starvation, not a kernel verdict: hang in phase resume; QEMU's "
			    "threads waited 41.2 s of 63.0 s on the host run queue (65 %); host CPU "
			    "pressure 80 %; guest: clocksource: Watchdog hpet read timed out");
	assert_string_equal(cf.cyc->hang_phase, "resume");   /* where it timed out, still shown */
	results_cycle_free(cf.cyc);
}

/* A board command that timed out on a starved host: the cycle stays infra (the run counted it),
 * with the host-cpu verdict's evidence; the same error without the timeout, or on a calm host,
 * gets the figures only (the negative controls). */
static void infra_after(struct cycle_fixture *cf, double wait_s, bool timed_out)
{
	struct host_cpu_sample to = end_sample(wait_s);
	struct starve_window command;
	struct rig_err err;

	cycle_setup(cf, true);
	cf->totals.infra = 1;
	/* the command's own window: here the cycle's (the command took all of it) */
	starve_window_of(&cf->ctx.host_from, &to, &command);
	assert_int_equal(starvation_infra_apply(&cf->ctx, cf->cyc, &to, "board command 'rig-dut "
						"start-workloads journal': no reply in 240 s",
						timed_out ? &command : NULL, &err), 0);
}

static void test_starved_command_timeout_is_explained_infra(void **state)
{
	struct cycle_fixture cf;

	(void)state;
	infra_after(&cf, 41.2, true);
	assert_int_equal(cf.totals.infra, 1);
	assert_int_equal(cf.totals.starved, 1);
	assert_true(cf.cyc->host_cpu.starved && cf.cyc->host_cpu.reclassified);
	assert_int_equal(cf.cyc->n_verdicts, 1);
	assert_string_equal(cf.cyc->verdicts[0].name, "host-cpu");
	assert_int_equal(cf.cyc->verdicts[0].result, RESULTS_VERDICT_ERROR);
	assert_string_equal(cf.cyc->verdicts[0].detail,
			    "host CPU starvation, not a kernel verdict: board command 'rig-dut "
			    "start-workloads journal': no reply in 240 s; QEMU's threads waited 41.2 s "
			    "of 63.0 s on the host run queue (65 %); host CPU pressure 80 %");
	results_cycle_free(cf.cyc);
}

static void test_unexplained_infra_keeps_figures_only(void **state)
{
	struct cycle_fixture cf;

	(void)state;
	infra_after(&cf, 41.2, false);              /* starved, but no command timed out */
	assert_true(cf.cyc->host_cpu.starved && !cf.cyc->host_cpu.reclassified);
	assert_int_equal(cf.cyc->n_verdicts, 0);
	assert_int_equal(cf.totals.starved, 0);
	results_cycle_free(cf.cyc);
	infra_after(&cf, 1.5, true);                /* timed out on a calm host */
	assert_true(!cf.cyc->host_cpu.starved && !cf.cyc->host_cpu.reclassified);
	assert_int_equal(cf.cyc->n_verdicts, 0);
	assert_int_equal(cf.totals.starved, 0);
	results_cycle_free(cf.cyc);
}

/* A starved cycle whose command timed out while the host served the board (a starved boot
 * earlier in the cycle, a calm command): the command's own window decides, not the cycle's. */
static void test_calm_command_in_a_starved_cycle_unexplained(void **state)
{
	struct cycle_fixture cf;
	struct host_cpu_sample to = end_sample(41.2);
	struct host_cpu_sample sent = to, late = to;
	struct starve_window command;
	struct rig_err err;

	(void)state;
	cycle_setup(&cf, true);
	late.at = sent.at + 60;
	late.qemu_run_s = sent.qemu_run_s + 59;
	late.qemu_wait_s = sent.qemu_wait_s + 0.9;
	starve_window_of(&sent, &late, &command);
	assert_int_equal(starvation_infra_apply(&cf.ctx, cf.cyc, &to, "board command 'x': no reply "
						"in 60 s", &command, &err), 0);
	assert_true(cf.cyc->host_cpu.starved && !cf.cyc->host_cpu.reclassified);
	assert_int_equal(cf.cyc->n_verdicts, 0);
	assert_int_equal(cf.totals.starved, 0);
	results_cycle_free(cf.cyc);
}

static void test_real_board_recorded_not_applicable(void **state)
{
	struct cycle_fixture cf;
	struct host_cpu_sample to = { .taken = true, .at = 1063 };
	enum results_cycle_status status = RESULTS_CYCLE_HANG;
	struct rig_err err;

	(void)state;
	cycle_setup(&cf, false);
	cf.totals.hangs = 1;
	assert_int_equal(starvation_apply(&cf.ctx, cf.cyc, &to, true, &status, &err), 0);
	assert_int_equal(status, RESULTS_CYCLE_HANG);
	assert_int_equal(cf.totals.hangs, 1);
	assert_true(cf.cyc->host_cpu.recorded && !cf.cyc->host_cpu.applicable);
	assert_true(isnan(cf.cyc->host_cpu.window_s) && isnan(cf.cyc->host_cpu.qemu_wait_s));
	assert_string_equal(cf.cyc->host_cpu.detail, "not applicable (no host process runs the board)");
	results_cycle_free(cf.cyc);
}

/* ---- stored, read back, printed ---------------------------------------------------------- */

static void test_figures_stored_and_shown(void **state)
{
	struct fixture *f = *state;
	struct results_run_info info = { .board = "qemu", .plan = "smoke" };
	struct cycle_fixture cf;
	enum results_cycle_status status;
	struct results_db *db = NULL;
	struct rig_err err;
	char path[128], *text = NULL;
	size_t len = 0;
	int64_t run_id;
	json_t *run, *h;
	FILE *out;

	snprintf(path, sizeof(path), "%s/results.db", f->dir);
	assert_int_equal(results_open(path, RESULTS_OPEN_CREATE, &db, &err), 0);
	assert_int_equal(results_run_begin(db, &info, &run_id, &err), 0);
	status = soft_lockup_after(&cf, 41.2, false);
	results_cycle_end(cf.cyc, status, 0, -1);
	cf.cyc->run_id = run_id;
	assert_int_equal(results_cycle_commit(db, cf.cyc, NULL, &err), 0);
	results_cycle_free(cf.cyc);

	assert_int_equal(results_query_run(db, run_id, &run, &err), 0);
	h = json_object_get(json_array_get(json_object_get(run, "cycles"), 0), "host_cpu");
	assert_true(json_is_object(h));
	assert_int_equal(json_integer_value(json_object_get(h, "applicable")), 1);
	assert_int_equal(json_integer_value(json_object_get(h, "starved")), 1);
	assert_int_equal(json_integer_value(json_object_get(h, "reclassified")), 1);
	assert_string_equal(json_string_value(json_object_get(h, "window_end")), "end");
	assert_float_equal(json_real_value(json_object_get(h, "qemu_wait_s")), 41.2, 1e-9);
	assert_float_equal(json_real_value(json_object_get(h, "psi_some_s")), 50.4, 1e-9);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(run, "cycles"), 0), "status")),
			    "infra");

	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(results_format_run(out, run), 0);
	assert_int_equal(fclose(out), 0);
	assert_non_null(strstr(text, "host CPU (a board run by QEMU on this host"));
	assert_non_null(strstr(text, "63.0"));
	assert_non_null(strstr(text, "41.2"));
	assert_non_null(strstr(text, "65"));
	assert_non_null(strstr(text, "host-cpu"));
	free(text);
	json_decref(run);
	results_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sample_sums_qemu_threads_and_psi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sample_missing_files_are_unavailable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sample_cut_short_thread_makes_qemu_unknown, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sample_real_hardware_reads_nothing, setup,
						teardown),
		cmocka_unit_test(test_sample_this_process),
		cmocka_unit_test(test_starved_soft_lockup_cycle_becomes_infra),
		cmocka_unit_test(test_not_starved_soft_lockup_stays_fail),
		cmocka_unit_test(test_starved_data_loss_stays_fail),
		cmocka_unit_test(test_starved_hang_becomes_infra),
		cmocka_unit_test(test_starved_command_timeout_is_explained_infra),
		cmocka_unit_test(test_unexplained_infra_keeps_figures_only),
		cmocka_unit_test(test_calm_command_in_a_starved_cycle_unexplained),
		cmocka_unit_test(test_real_board_recorded_not_applicable),
		cmocka_unit_test_setup_teardown(test_figures_stored_and_shown, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
