/* `rig lava import`: dispatcher logs and REST exports into the results database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/lava.h"
#include "lava/cases.h"
#include "lava/evidence.h"
#include "lava/import.h"
#include "support.h"

#define LOG_DATA "rig/tests/data/lava/dispatcher-smoke.log"
#define REST_DATA "rig/tests/data/lava/rest-nightly.json"
/* a real lava-run of tests/lava/plans/short.yaml (debug and console lines left out but for
 * LAVA's signals) */
#define REAL_DATA "rig/tests/data/lava/lava-run-short.log"
/* a real lava-run of hibernate+resume, power cut while suspended, hibernate+noresume (console
 * lines left out but for LAVA's signals) */
#define FORCED_DATA "rig/tests/data/lava/lava-run-forced.log"
#define HOSTILE_OWNER "nvme-ext4\"; DROP TABLE runs;--"
#define HOSTILE_STALL "<script>alert(1)</script>"

struct fixture {
	char dir[64];
	char db[128];
	char out[4096];
	char errout[4096];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_lava_import.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->db, sizeof(f->db), "%s/results.db", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char path[160];

	snprintf(path, sizeof(path), "%s-wal", f->db);
	unlink(path);
	snprintf(path, sizeof(path), "%s-shm", f->db);
	unlink(path);
	unlink(f->db);
	snprintf(path, sizeof(path), "%s/bad.log", f->dir);
	unlink(path);
	rmdir(f->dir);
	free(f);
	return 0;
}

static int run_lava(struct fixture *f, const char *const *args, int n)
{
	char *argv[16];
	FILE *out = fmemopen(f->out, sizeof(f->out), "w");
	FILE *errout = fmemopen(f->errout, sizeof(f->errout), "w");
	int code;

	assert_true(n < 16);
	for (int i = 0; i < n; i++)
		argv[i] = (char *)args[i];
	argv[n] = NULL;
	code = cmd_lava_to(n, argv, out, errout);
	fclose(out);
	fclose(errout);
	return code;
}

/* The first column of the first row of sql, as text ("" when NULL, "<none>" with no row). */
static void query(const char *db_path, const char *sql, char *buf, size_t size)
{
	sqlite3 *db;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, size, "%s", sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
	else
		snprintf(buf, size, "<none>");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void assert_query(const char *db, const char *sql, const char *want)
{
	char got[512];

	query(db, sql, got, sizeof(got));
	assert_string_equal(got, want);
}

static void test_log_import(void **state)
{
	struct fixture *f = *state;
	char *log = top_path(LOG_DATA);
	const char *args[] = {"lava", "import", "--db", f->db, "--log", log, "--job-id", "7"};

	/* a stall failed and two cycles hung: exit 1 */
	assert_int_equal(run_lava(f, args, 8), 1);
	assert_query(f->db, "SELECT board || '|' || plan || '|' || source || '|' || lava_job_id || '|' || "
		     "kernel_version || '|' || status || '|' || knob_freeze_filesystems FROM runs",
		     "qemu|smoke|lava|7|7.3.4-rig|fail|1");
	assert_query(f->db, "SELECT count(*) FROM cycles", "4");
	assert_query(f->db, "SELECT group_concat(step_kind || ':' || status, ' ') FROM "
		     "(SELECT * FROM cycles ORDER BY idx)",
		     "suspend:fail power-cut:fail hibernate:hang suspend:hang");
	/* the hang the DUT raised keeps its phase; the one LAVA's timeout found is a resume hang */
	assert_query(f->db, "SELECT hang_phase FROM cycles WHERE idx = 2", "restore");
	assert_query(f->db, "SELECT hang_phase FROM cycles WHERE idx = 3", "resume");
	assert_query(f->db, "SELECT result FROM verdicts WHERE name = 'stall' AND filesystem = 'sata-xfs'",
		     "fail");
	assert_query(f->db, "SELECT value || ' ' || unit FROM measurements WHERE name = 'stall_ms' "
		     "AND filesystem = 'sata-xfs'", "250.25 ms");
	/* the verify after the power cut joins its cycle */
	assert_query(f->db, "SELECT c.idx FROM verdicts v JOIN cycles c ON c.id = v.cycle_id "
		     "WHERE v.name = 'no-loss' AND v.filesystem = 'sata-xfs'", "1");
	/* setup facts are not verdicts, and nothing of the lava suite is */
	assert_query(f->db, "SELECT count(*) FROM verdicts WHERE name IN ('board', 'knob', 'job', 'validate')",
		     "0");
	free(log);
}

static void test_real_lava_run(void **state)
{
	struct fixture *f = *state;
	char *log = top_path(REAL_DATA);
	const char *args[] = {"lava", "import", "--db", f->db, "--log", log, "--job-id", "1"};
	int code = run_lava(f, args, 8);
	char failed[32];

	/* the verdicts are whatever that run found: the exit code must agree with them */
	query(f->db, "SELECT count(*) FROM verdicts WHERE result != 'pass'", failed, sizeof(failed));
	assert_int_equal(code, strcmp(failed, "0") ? 1 : 0);
	/* board, plan and kernel come from what the DUT reported in rig-setup (YAML tags and all) */
	assert_query(f->db, "SELECT board || '|' || plan || '|' || kernel_version || '|' || source FROM runs",
		     "qemu|lava-short|7.3.4-rig|lava");
	assert_query(f->db, "SELECT count(*) || ' ' || step_kind FROM cycles", "1 suspend");
	assert_query(f->db, "SELECT group_concat(name || '.' || ifnull(filesystem, '-'), ' ') FROM "
		     "(SELECT * FROM verdicts ORDER BY id)",
		     "suspend.- stall.nvme-ext4 stall.nvme-btrfs stall.sata-xfs stall.loop-ext4 clean-resume.-");
	assert_query(f->db, "SELECT count(*) FROM measurements WHERE name = 'stall_ms' AND unit = 'ms' AND value > 0",
		     "4");
	free(log);
}

static void test_real_forced_failed_resumes(void **state)
{
	struct fixture *f = *state;
	char *log = top_path(FORCED_DATA);
	const char *args[] = {"lava", "import", "--db", f->db, "--log", log, "--job-id", "3"};
	int code = run_lava(f, args, 8);
	char failed[32];

	query(f->db, "SELECT count(*) FROM verdicts WHERE result != 'pass'", failed, sizeof(failed));
	assert_int_equal(code, strcmp(failed, "0") ? 1 : 0);
	assert_query(f->db, "SELECT group_concat(idx || ':' || step_kind, ' ') FROM (SELECT * FROM cycles ORDER BY idx)",
		     "0:hibernate 1:power-cut 2:hibernate");
	/* the verify after each cut joined its cycle: no-loss and fsck for all four filesystems */
	assert_query(f->db, "SELECT group_concat(n, ' ') FROM (SELECT c.idx || '=' || count(*) AS n FROM verdicts v "
		     "JOIN cycles c ON c.id = v.cycle_id WHERE v.name IN ('no-loss', 'fsck') GROUP BY c.idx ORDER BY c.idx)",
		     "1=8 2=8");
	assert_query(f->db, "SELECT count(*) FROM measurements WHERE name = 'no-loss_records' AND unit = 'records'", "8");
	free(log);
}

static void test_rest_import_hostile_verbatim(void **state)
{
	struct fixture *f = *state;
	char *rest = top_path(REST_DATA);
	const char *args[] = {"lava", "import", "--db", f->db, "--rest", rest, "--board", "lab'board"};

	assert_int_equal(run_lava(f, args, 8), 1);
	/* --board overrides the board.NAME the job reported */
	assert_query(f->db, "SELECT board || '|' || source || '|' || ifnull(lava_job_id, 'NULL') FROM runs",
		     "lab'board|lava|NULL");
	assert_query(f->db, "SELECT filesystem FROM verdicts WHERE name = 'owner'", HOSTILE_OWNER);
	assert_query(f->db, "SELECT result FROM verdicts WHERE filesystem = '" "<script>alert(1)</script>" "'",
		     "skip");
	/* suite given as an id (name from the metadata), an object and a string */
	assert_query(f->db, "SELECT group_concat(idx || ':' || step_kind, ' ') FROM (SELECT * FROM cycles ORDER BY idx)",
		     "0:suspend 1:suspend 2:hibernate");
	assert_query(f->db, "SELECT result FROM verdicts WHERE name = 'clean-resume'", "error");
	assert_query(f->db, "SELECT value FROM measurements WHERE name = 'stall_ms'", "812.0");
	assert_query(f->db, "SELECT knob_freeze_filesystems FROM runs", "0");
	free(rest);
}

static void test_board_required_without_setup(void **state)
{
	struct fixture *f = *state;
	char path[160];
	FILE *log;
	const char *args[] = {"lava", "import", "--db", f->db, "--log", path};

	snprintf(path, sizeof(path), "%s/bad.log", f->dir);
	log = fopen(path, "w");
	assert_non_null(log);
	fputs("{\"dt\": \"2026-12-03T02:00:00\", \"lvl\": \"results\", \"msg\": {\"case\": \"suspend\", "
	      "\"definition\": \"2_cycle-000-suspend\", \"result\": \"pass\"}}\n", log);
	fclose(log);
	assert_int_equal(run_lava(f, args, 6), 2);
	assert_non_null(strstr(f->errout, "--board"));
}

static void test_bad_log_line_names_line(void **state)
{
	struct fixture *f = *state;
	char path[160], want[200];
	FILE *log;
	const char *args[] = {"lava", "import", "--db", f->db, "--log", path, "--board", "qemu"};

	snprintf(path, sizeof(path), "%s/bad.log", f->dir);
	log = fopen(path, "w");
	assert_non_null(log);
	fputs("{\"lvl\": \"info\", \"msg\": \"ok\"}\n{\"lvl\": \"results\", \"msg\": {\"case\": [}\n", log);
	fclose(log);
	assert_int_equal(run_lava(f, args, 8), 2);
	snprintf(want, sizeof(want), "%s:2:", path);
	assert_non_null(strstr(f->errout, want));
}

/* Write one log made of head, `repeat` copies of unit and tail to <dir>/limits.log. */
static void write_log(struct fixture *f, char *path, size_t size, const char *head,
		      const char *unit, size_t repeat, const char *tail)
{
	FILE *log;

	snprintf(path, size, "%s/limits.log", f->dir);
	log = fopen(path, "w");
	assert_non_null(log);
	fputs(head, log);
	for (size_t i = 0; i < repeat; i++)
		fputs(unit, log);
	fputs(tail, log);
	assert_int_equal(fclose(log), 0);
}

static double now_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Binary garbage said "the job does not name its board": it is not a LAVA log at all. */
static void test_garbage_is_not_a_lava_log(void **state)
{
	struct fixture *f = *state;
	char path[160];
	const char *args[] = {"lava", "import", "--db", f->db, "--log", path};

	write_log(f, path, sizeof(path), "\x7f" "ELF\x02\x01 results target \xff\xfe\n", "\x01\x02garbage\n",
		  100, "");
	assert_int_equal(run_lava(f, args, 6), 2);
	assert_non_null(strstr(f->errout, "not a LAVA"));
	assert_non_null(strstr(f->errout, path));
	assert_null(strstr(f->errout, "does not name its board"));
}

/* A results line nested 40k deep took 8.7 s in libyaml: refused at once, naming the line. */
static void test_deep_log_line_is_refused(void **state)
{
	struct fixture *f = *state;
	char path[160], want[200];
	const char *args[] = {"lava", "import", "--db", f->db, "--log", path, "--board", "qemu"};
	double start;

	write_log(f, path, sizeof(path), "{\"lvl\": \"info\", \"msg\": \"ok\"}\n"
		  "{\"lvl\": \"results\", \"msg\": ", "[", 40000, "\n");
	start = now_seconds();
	assert_int_equal(run_lava(f, args, 8), 2);
	assert_true(now_seconds() - start < 1.0);
	snprintf(want, sizeof(want), "%s:2: nested more than", path);
	assert_non_null(strstr(f->errout, want));
}

/* A results line whose fields are aliases of one large anchored value would copy it once per
 * use: refused at the first alias, naming the line (LAVA writes no aliases). */
static void test_alias_in_log_line_is_refused(void **state)
{
	struct fixture *f = *state;
	char path[160], want[200];
	const char *args[] = {"lava", "import", "--db", f->db, "--log", path, "--board", "qemu"};

	write_log(f, path, sizeof(path), "{\"lvl\": \"info\", \"msg\": \"ok\"}\n"
		  "{\"lvl\": \"results\", \"msg\": {\"case\": &c laugh, \"definition\": *c", "", 0,
		  "}}\n");
	assert_int_equal(run_lava(f, args, 8), 2);
	snprintf(want, sizeof(want), "%s:2: YAML alias *c: aliases are refused", path);
	assert_non_null(strstr(f->errout, want));
}

/* A log line over 1 MiB is no LAVA log line: refused by file and line, never parsed. */
static void test_overlong_log_line_is_refused(void **state)
{
	struct fixture *f = *state;
	char path[160], want[200];
	const char *args[] = {"lava", "import", "--db", f->db, "--log", path, "--board", "qemu"};

	write_log(f, path, sizeof(path), "{\"lvl\": \"target\", \"msg\": \"", "xxxxxxxx",
		  200 * 1024, "\"}\n");
	assert_int_equal(run_lava(f, args, 8), 2);
	snprintf(want, sizeof(want), "%s:1: a line of", path);
	assert_non_null(strstr(f->errout, want));
}

/* Logs and REST exports past their bounds are refused by size, unread (sparse files here). */
static void test_oversized_files_are_refused(void **state)
{
	struct fixture *f = *state;
	char path[160];
	const char *log_args[] = {"lava", "import", "--db", f->db, "--log", path, "--board", "qemu"};
	const char *rest_args[] = {"lava", "import", "--db", f->db, "--rest", path, "--board", "qemu"};

	write_log(f, path, sizeof(path), "{\"lvl\": \"info\", \"msg\": \"ok\"}\n", "", 0, "");
	assert_int_equal(truncate(path, 600LL << 20), 0);
	assert_int_equal(run_lava(f, log_args, 8), 2);
	assert_non_null(strstr(f->errout, "bytes, more than"));
	assert_int_equal(truncate(path, 65LL << 20), 0);
	assert_int_equal(run_lava(f, rest_args, 8), 2);
	assert_non_null(strstr(f->errout, "REST export"));
	unlink(path);
}

/* Import a dispatcher log of one line: LAVA failed the job (error_type, error_msg) before any
 * cycle. Returns the exit code. */
static int import_job_failure(struct fixture *f, const char *error_type, const char *error_msg)
{
	char path[160];
	FILE *log;
	const char *args[] = {"lava", "import", "--db", f->db, "--log", path, "--board", "qemu"};

	snprintf(path, sizeof(path), "%s/bad.log", f->dir);
	log = fopen(path, "w");
	assert_non_null(log);
	fprintf(log, "- {\"dt\": \"2026-12-03T02:00:00\", \"lvl\": \"results\", \"msg\": {\"case\": "
		"\"job\", \"definition\": \"lava\", \"result\": \"fail\", \"error_type\": \"%s\", "
		"\"error_msg\": \"%s\"}}\n", error_type, error_msg);
	fclose(log);
	return run_lava(f, args, 8);
}

static void test_no_cycle_is_infra(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(import_job_failure(f, "Infrastructure", "Connection closed"), 3);
	assert_query(f->db, "SELECT status FROM runs", "infra");
}

/* The kernel panicked before the first cycle (LAVA: error_type Job): a failed boot, not the lab's
 * failure; the Infrastructure case above stays infra. */
static void test_kernel_that_never_boots_is_a_failure(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(import_job_failure(f, "Job", "auto-login-action kernel 'panic'"), 1);
	assert_query(f->db, "SELECT status || ' ' || exit_code FROM runs", "fail 1");
	assert_query(f->db, "SELECT idx || ' ' || step_kind || ' ' || status FROM cycles", "0 boot fail");
	assert_query(f->db, "SELECT name || ' ' || result || ' ' || detail FROM verdicts",
		     "boot fail LAVA Job error: auto-login-action kernel 'panic'");
}

static void test_usage_errors(void **state)
{
	struct fixture *f = *state;
	const char *both[] = {"lava", "import", "--db", f->db, "--log", "a", "--rest", "b"};
	const char *bad_id[] = {"lava", "import", "--db", f->db, "--log", "a", "--job-id", "x1"};
	const char *unknown[] = {"lava", "frobnicate"};

	assert_int_equal(run_lava(f, both, 8), 2);
	assert_int_equal(run_lava(f, bad_id, 8), 2);
	assert_non_null(strstr(f->errout, "--job-id"));
	assert_int_equal(run_lava(f, unknown, 2), 2);
}

/* Importing one job twice stores it once, and says so; the second import exits like the first. */
static void test_import_twice_stores_once(void **state)
{
	struct fixture *f = *state;
	char *log = top_path(LOG_DATA);
	const char *args[] = {"lava", "import", "--db", f->db, "--log", log, "--job-id", "7"};
	const char *other[] = {"lava", "import", "--db", f->db, "--log", log, "--job-id", "8"};
	const char *other_server[] = {"lava", "import", "--db", f->db, "--log", log, "--job-id", "7",
				      "--server", "http://lava.example"};

	assert_int_equal(run_lava(f, args, 8), 1);
	assert_int_equal(run_lava(f, args, 8), 1);
	assert_non_null(strstr(f->out, "already stored as run 1"));
	assert_query(f->db, "SELECT count(*) FROM runs", "1");
	assert_query(f->db, "SELECT count(*) FROM cycles", "4");
	/* another job, or the same number on another server, is another run */
	assert_int_equal(run_lava(f, other, 8), 1);
	assert_int_equal(run_lava(f, other_server, 10), 1);
	assert_query(f->db, "SELECT group_concat(lava_job_id || '@' || ifnull(lava_server, '-'), ' ') "
		     "FROM runs", "7@- 8@- 7@http://lava.example");
	free(log);
}

/* A job whose cases cannot all be stored leaves nothing behind: no run "infra", no half cycle. */
static void test_import_is_atomic(void **state)
{
	struct fixture *f = *state;
	struct lava_cases cases = {0};
	struct lava_case c = {.suite = "0_rig-setup", .name = "board.qemu", .result = "pass"};
	struct lava_import_info info = {.lava_job_id = "9"};
	struct lava_import_outcome got;
	struct results_db *db;
	struct rig_err err = {0};
	sqlite3 *raw;

	assert_int_equal(lava_cases_add(&cases, &c, &err), 0);
	c.suite = "1_cycle-000-suspend";
	c.name = "suspend";
	assert_int_equal(lava_cases_add(&cases, &c, &err), 0);
	c.name = "stall.nvme-ext4";
	assert_int_equal(lava_cases_add(&cases, &c, &err), 0);
	assert_int_equal(results_open(f->db, RESULTS_OPEN_CREATE, &db, &err), 0);
	/* make the verdict insert fail half way through the job */
	assert_int_equal(sqlite3_open(f->db, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "CREATE TRIGGER no_stall BEFORE INSERT ON verdicts "
				      "WHEN NEW.name = 'stall' BEGIN SELECT RAISE(ABORT, 'refused'); END",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(lava_import_once(db, &cases, &info, &got, &err), -1);
	assert_non_null(strstr(err.msg, "refused"));
	results_close(db);
	assert_query(f->db, "SELECT count(*) FROM runs", "0");
	assert_query(f->db, "SELECT count(*) FROM cycles", "0");
	lava_cases_free(&cases);
}

static void test_server_usage_errors(void **state)
{
	struct fixture *f = *state;
	const char *neither[] = {"lava", "import", "--db", f->db, "--server", "http://localhost:1"};
	const char *both[] = {"lava", "import", "--db", f->db, "--server", "http://localhost:1",
			      "--job", "1", "--since", "2026-12-01"};
	const char *bad_since[] = {"lava", "import", "--db", f->db, "--server", "http://localhost:1",
				   "--since", "yesterday"};
	const char *bad_job[] = {"lava", "import", "--db", f->db, "--server", "http://localhost:1",
				 "--job", "0"};
	const char *not_http[] = {"lava", "import", "--db", f->db, "--server", "file:///etc",
				  "--job", "1"};
	const char *no_server[] = {"lava", "submit", "--board", "qemu", "--plan", "smoke"};
	const char *down[] = {"lava", "import", "--db", f->db, "--server", "http://127.0.0.1:9",
			      "--job", "1"};

	assert_int_equal(run_lava(f, neither, 6), 2);
	assert_int_equal(run_lava(f, both, 10), 2);
	assert_non_null(strstr(f->errout, "one of --job N or --since DATE"));
	assert_int_equal(run_lava(f, bad_since, 8), 2);
	assert_non_null(strstr(f->errout, "--since: 'yesterday'"));
	assert_int_equal(run_lava(f, bad_job, 8), 2);
	assert_int_equal(run_lava(f, not_http, 8), 2);
	assert_non_null(strstr(f->errout, "not an http(s) URL"));
	unsetenv("RIG_LAVA_SERVER");
	assert_int_equal(run_lava(f, no_server, 6), 2);
	assert_non_null(strstr(f->errout, "no LAVA server"));
	/* nothing listens on the discard port: an infrastructure error naming the URL */
	assert_int_equal(run_lava(f, down, 8), 3);
	assert_non_null(strstr(f->errout, "http://127.0.0.1:9/api/v0.2/jobs/1/"));
}

static void test_cycle_of_suite(void **state)
{
	char kind[32];

	(void)state;
	assert_int_equal(lava_cycle_of_suite("12_cycle-003-power-cut", kind, sizeof(kind)), 3);
	assert_string_equal(kind, "power-cut");
	assert_int_equal(lava_cycle_of_suite("cycle-010-verify", kind, sizeof(kind)), 10);
	assert_string_equal(kind, "verify");
	assert_int_equal(lava_cycle_of_suite("1_rig-setup-000", kind, sizeof(kind)), -1);
	assert_int_equal(lava_cycle_of_suite("lava", kind, sizeof(kind)), -1);
	assert_int_equal(lava_cycle_of_suite("cycle-x-suspend", kind, sizeof(kind)), -1);
	assert_int_equal(lava_cycle_of_suite("cycle-001-", kind, sizeof(kind)), -1);
}

/* A record is found by its whole command word, with or without arguments. */
static void test_record_command_word(void **state)
{
	(void)state;
	assert_true(lava_is_command("rig-dut info", EV_CMD_INFO));
	assert_true(lava_is_command("rig-dut fsfreeze nvme-ext4 state", EV_CMD_FSFREEZE));
	assert_true(lava_is_command("rig-dut suspend deep rtc 3", EV_CMD_SUSPEND));
	assert_false(lava_is_command("rig-dut infox", EV_CMD_INFO));
	assert_false(lava_is_command("rig-dut fio-verify a=b", EV_CMD_VERIFY));
	assert_false(lava_is_command("rig-dut", EV_CMD_INFO));
}

static void test_log_measurements_parsed(void **state)
{
	struct lava_cases cases = {0};
	struct rig_err err = {0};
	char *log = top_path(LOG_DATA);
	size_t with_measurement = 0;

	(void)state;
	assert_int_equal(lava_cases_from_log(log, &cases, &err), 0);
	for (size_t i = 0; i < cases.n; i++) {
		assert_non_null(cases.v[i].suite);
		assert_true(cases.v[i].logged > 0);
		with_measurement += cases.v[i].has_measurement;
	}
	/* suspend, two stalls, two no-loss and the knob carry a measurement in the log */
	assert_int_equal(with_measurement, 6);
	lava_cases_free(&cases);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_log_import, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_lava_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_forced_failed_resumes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rest_import_hostile_verbatim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_board_required_without_setup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_log_line_names_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage_is_not_a_lava_log, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deep_log_line_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_in_log_line_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overlong_log_line_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_oversized_files_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_cycle_is_infra, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_that_never_boots_is_a_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_usage_errors, setup, teardown),
		cmocka_unit_test(test_cycle_of_suite),
		cmocka_unit_test(test_record_command_word),
		cmocka_unit_test(test_log_measurements_parsed),
		cmocka_unit_test_setup_teardown(test_import_twice_stores_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_is_atomic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_server_usage_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
