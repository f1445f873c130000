/*
 * rig dashboard: render a site from a synthetic history (3 boards, 5 nights: pass, fail, known,
 * infra, aborted and not-run nights, a hang) and check the HTML: matrix cells and their classes,
 * regression lines, board and run pages, every relative link resolving to a file, and hostile
 * database text arriving escaped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/dashboard.h"
#include "dashboard/html.h"
#include "dashboard/render.h"
#include "dashboard/synth.h"
#include "results/db.h"

#define NIGHT0 1793534400.0   /* 2026-11-01 12:00 UTC */
#define DAY 86400.0
#define N_BOARDS 3
#define N_NIGHTS 5
#define PLANTED_SCRIPT "<script>document.title='pwned';alert(1)</script>"
#define PLANTED_DETAIL "lost 3 records <script>alert(1)</script>"
#define PLANTED_KERNEL "6.16.0<img src=x onerror=alert(1)>"
#define KNOWN_ID "lockdep-freezer"

/* What each board did each night; NULL = not run. */
struct night_plan {
	const char *status;    /* pass, fail, known, infra, aborted */
	const char *kernel;
	bool hang;             /* second cycle hangs with the planted console tail */
};

static const struct night_plan history[N_BOARDS][N_NIGHTS] = {
	{ /* alpha: fails since night 3, when the kernel changed */
		{ "pass", "6.16.0", false }, { "pass", "6.16.0", false }, { "pass", "6.16.0", false },
		{ "fail", "6.17.0-rc1", false }, { "fail", "6.17.0-rc2", false } },
	{ /* beta: a known-issue night, then a new failure with a hang on the last night */
		{ "pass", "6.16.0", false }, { "pass", "6.16.0", false }, { "known", "6.16.0", false },
		{ "pass", "6.16.1", false }, { "fail", "6.17.0-rc2", true } },
	{ /* gamma: infra, aborted and not-run nights, a hostile kernel string */
		{ "pass", "6.16.0", false }, { "infra", "6.16.0", false },
		{ "aborted", "6.16.0", false }, { NULL, NULL, false },
		{ "known", PLANTED_KERNEL, false } },
};
static const char *const board_names[N_BOARDS] = { "alpha", "beta", "gamma" };

struct fixture {
	char dir[64];
	char db[128];
	char site[128];
};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = calloc(1, (size_t)len + 1)) && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static char *read_page(const struct fixture *fx, const char *rel)
{
	char path[512];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", fx->site, rel);
	text = slurp(path);
	if (!text)
		fail_msg("cannot read %s", path);
	return text;
}

static enum results_run_status run_status(const char *s)
{
	return strcmp(s, "pass") == 0    ? RESULTS_RUN_PASS
	       : strcmp(s, "fail") == 0  ? RESULTS_RUN_FAIL
	       : strcmp(s, "known") == 0 ? RESULTS_RUN_KNOWN
	       : strcmp(s, "infra") == 0 ? RESULTS_RUN_INFRA
				      : RESULTS_RUN_ABORTED;
}

static void add_cycle_items(struct results_cycle *c, const struct night_plan *p, int idx)
{
	struct rig_err err = { 0 };
	bool fail = strcmp(p->status, "fail") == 0, known = strcmp(p->status, "known") == 0;

	assert_int_equal(results_cycle_add_verdict(c, "suspend", NULL, RESULTS_VERDICT_PASS, NULL,
						   "ok", &err), 0);
	assert_int_equal(results_cycle_add_verdict(c, "stall", "sata-xfs",
						   fail ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
						   NULL, fail ? PLANTED_DETAIL : "ok", &err), 0);
	assert_int_equal(results_cycle_add_verdict(c, "clean-resume", NULL,
						   known ? RESULTS_VERDICT_FAIL : RESULTS_VERDICT_PASS,
						   known ? KNOWN_ID : NULL, "dmesg", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "suspend_ms", NULL, 100 + idx, "ms", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "resume_ms", NULL, 200 + idx, "ms", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "freeze_filesystems_ms", NULL, 20, "ms",
						       &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "stall_ms", "sata-xfs", fail ? 900 : 40,
						       "ms", &err), 0);
	assert_int_equal(results_cycle_add_measurement(c, "stall_ms", "nvme-ext4", 30, "ms", &err), 0);
}

static void add_cycle(struct results_db *db, int64_t run, const struct night_plan *p, int idx,
		      double at)
{
	struct rig_err err = { 0 };
	struct results_cycle_info info = { .idx = idx, .step_kind = "suspend", .started_at = at,
					   .kernel_version = p->kernel, .console_from = -1 };
	struct results_cycle *c = results_cycle_begin(run, &info, &err);
	bool hang = p->hang && idx == 1;
	enum results_cycle_status st = strcmp(p->status, "fail") == 0 ? RESULTS_CYCLE_FAIL
				       : strcmp(p->status, "infra") == 0 ? RESULTS_CYCLE_INFRA
				       : RESULTS_CYCLE_PASS;

	assert_non_null(c);
	add_cycle_items(c, p, idx);
	if (hang)
		assert_int_equal(results_cycle_set_hang(c, "resume", PLANTED_SCRIPT, &err), 0);
	results_cycle_end(c, hang ? RESULTS_CYCLE_HANG : st, at + 10, -1);
	assert_int_equal(results_cycle_commit(db, c, NULL, &err), 0);
	results_cycle_free(c);
}

static void add_run(struct fixture *fx, struct results_db *db, int board, int night)
{
	const struct night_plan *p = &history[board][night];
	struct rig_err err = { 0 };
	char log[256];
	double at = NIGHT0 + night * DAY + board * 60;
	int64_t run;
	FILE *f;

	/* The console log exists, so the run page's link to it must resolve. */
	snprintf(log, sizeof(log), "%s/logs/%s-%d.log", fx->dir, board_names[board], night);
	f = fopen(log, "w");
	assert_non_null(f);
	fputs("console\n", f);
	fclose(f);
	struct results_run_info info = { .board = board_names[board], .plan = "nightly",
					 .kernel_version = p->kernel, .started_at = at,
					 .knob_freeze_filesystems = RESULTS_KNOB_ON,
					 .console_log = log, .host = "lab1" };
	assert_int_equal(results_run_begin(db, &info, &run, &err), 0);
	for (int idx = 0; idx < 2; idx++)
		add_cycle(db, run, p, idx, at + idx * 20);
	assert_int_equal(results_add_artefact(db, run, 0, "console-log", log, &err), 0);
	assert_int_equal(results_run_end(db, run, run_status(p->status), 0, &err), 0);
}

static void fill_history(struct fixture *fx)
{
	struct rig_err err = { 0 };
	struct results_db *db;
	char logs[128];

	snprintf(logs, sizeof(logs), "%s/logs", fx->dir);
	assert_int_equal(mkdir(logs, 0755), 0);
	assert_int_equal(results_open(fx->db, RESULTS_OPEN_CREATE, &db, &err), 0);
	/* Interleave boards night by night, as a lab fills the database. */
	for (int night = 0; night < N_NIGHTS; night++)
		for (int board = 0; board < N_BOARDS; board++)
			if (history[board][night].status)
				add_run(fx, db, board, night);
	results_close(db);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct dash_options opt;
	struct dash_stats stats;
	struct rig_err err = { 0 };

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_dashboard.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->db, sizeof(fx->db), "%s/results.db", fx->dir);
	snprintf(fx->site, sizeof(fx->site), "%s/site/dash", fx->dir);
	*state = fx;
	fill_history(fx);
	opt = (struct dash_options){ .db_path = fx->db, .out_dir = fx->site, .nights = 0 };
	if (dash_render(&opt, &stats, &err)) {
		fprintf(stderr, "render: %s\n", err.msg);
		return -1;
	}
	return stats.runs == 14 && stats.boards == N_BOARDS ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	int ret = nftw(fx->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);

	free(fx);
	return ret;
}

static void night_name(int night, char *buf, size_t size)
{
	time_t t = (time_t)(NIGHT0 + night * DAY);
	struct tm tm;

	assert_non_null(localtime_r(&t, &tm));
	assert_true(strftime(buf, size, "%Y-%m-%d", &tm) > 0);
}

/* The <td> of the matrix for board and night, as a copy. */
static char *matrix_cell(const char *html, const char *board, int night)
{
	char key[128], date[16];
	const char *hit, *start, *end;

	night_name(night, date, sizeof(date));
	snprintf(key, sizeof(key), "data-board=\"%s\" data-night=\"%s\"", board, date);
	hit = strstr(html, key);
	if (!hit)
		fail_msg("no cell %s", key);
	assert_null(strstr(hit + 1, key));
	for (start = hit; start > html && strncmp(start, "<td", 3) != 0; start--)
		;
	end = strstr(hit, "</td>");
	assert_non_null(end);
	return strndup(start, (size_t)(end - start));
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void assert_cell(const char *html, int board, int night, const char *expect_class,
			const char *expect_text)
{
	char cls[64];
	char *cell = matrix_cell(html, board_names[board], night);

	snprintf(cls, sizeof(cls), "<td class=\"cell %s\"", expect_class);
	if (strncmp(cell, cls, strlen(cls)) != 0)
		fail_msg("%s night %d: want %s, got %.80s", board_names[board], night, cls, cell);
	if (expect_text && !strstr(cell, expect_text))
		fail_msg("%s night %d: no '%s' in %s", board_names[board], night, expect_text, cell);
	free(cell);
}

static void test_matrix_cells(void **state)
{
	char *html = read_page(*state, "index.html");

	assert_int_equal(count(html, "<td class=\"cell "), N_BOARDS * N_NIGHTS);
	for (int b = 0; b < N_BOARDS; b++)
		for (int n = 0; n < N_NIGHTS; n++) {
			const char *st = history[b][n].status;

			assert_cell(html, b, n, st ? st : "none", st ? "runs/" : "not run");
		}
	/* Failing verdict names and known-issue ids are listed in the cell. */
	assert_cell(html, 0, 3, "fail", "stall");
	assert_cell(html, 1, 2, "known", KNOWN_ID);
	assert_cell(html, 2, 1, "infra", "infra");
	free(html);
}

/* The row of a board in the matrix. */
static char *matrix_row(const char *html, const char *board)
{
	char key[128];
	const char *start, *end;

	snprintf(key, sizeof(key), "<tr><th><a href=\"boards/%s.html\">", board);
	start = strstr(html, key);
	assert_non_null(start);
	end = strstr(start, "</tr>");
	assert_non_null(end);
	return strndup(start, (size_t)(end - start));
}

static void test_regression_lines(void **state)
{
	char *html = read_page(*state, "index.html");
	char *alpha = matrix_row(html, "alpha"), *beta = matrix_row(html, "beta");
	char *gamma = matrix_row(html, "gamma");
	char since[128], fresh[128], n3[16], n2[16];

	night_name(3, n3, sizeof(n3));
	night_name(2, n2, sizeof(n2));
	snprintf(since, sizeof(since), "failing since %s (kernel %s", n3, history[0][3].kernel);
	snprintf(fresh, sizeof(fresh), "new failure (last pass: %s, kernel %s", n3,
		 history[1][3].kernel);
	assert_non_null(strstr(alpha, since));
	assert_non_null(strstr(alpha, n2));            /* alpha's last pass */
	assert_non_null(strstr(beta, fresh));
	assert_non_null(strstr(gamma, "passing"));     /* known issues are not regressions */
	/* Regressions are listed first: beta (new) before alpha (since) before gamma. */
	assert_true(strstr(html, beta) < strstr(html, alpha));
	assert_true(strstr(html, alpha) < strstr(html, gamma));
	free(alpha), free(beta), free(gamma), free(html);
}

static void test_board_page(void **state)
{
	char *html = read_page(*state, "boards/alpha.html");
	const char *regressions = strstr(html, "<table id=\"regressions\">");
	char n2[16], n3[16];

	night_name(2, n2, sizeof(n2));
	night_name(3, n3, sizeof(n3));
	assert_non_null(regressions);
	/* stall: first bad on night 3, last good on night 2. */
	assert_non_null(strstr(regressions, "<tr><td>stall</td>"));
	assert_true(strstr(regressions, n3) < strstr(regressions, "</table>"));
	assert_true(strstr(regressions, n2) < strstr(regressions, "</table>"));
	assert_non_null(strstr(html, "<table id=\"passrate\">"));
	assert_non_null(strstr(html, "6.17.0-rc1"));
	assert_non_null(strstr(html, "freeze_filesystems=on"));
	assert_int_equal(count(strstr(html, "<table id=\"history\">"), "<tr><td><a class="), 5);
	free(html);
}

/* The run id of a board's run on a night, from the matrix link. */
static char *run_page_of(const struct fixture *fx, const char *board, int night)
{
	char *html = read_page(fx, "index.html");
	char *cell = matrix_cell(html, board, night);
	const char *href = strstr(cell, "href=\"runs/");
	char rel[64];

	assert_non_null(href);
	assert_int_equal(sscanf(href, "href=\"%63[^\"]\"", rel), 1);
	free(cell), free(html);
	return read_page(fx, rel);
}

static void test_run_page(void **state)
{
	char *html = run_page_of(*state, "beta", 4);

	assert_int_equal(count(html, "<section class=\"cycle\""), 2);
	assert_non_null(strstr(html, "hang in phase <b>resume</b>"));
	assert_non_null(strstr(html, "<svg class=\"phases\""));
	assert_int_equal(count(html, "<svg class=\"trend\""), 2);
	assert_non_null(strstr(html, "sata-xfs"));
	assert_non_null(strstr(html, "console-log"));
	free(html);
}

static void test_hostile_text_escaped(void **state)
{
	char *run = run_page_of(*state, "beta", 4);
	char *index = read_page(*state, "index.html");
	char *gamma = read_page(*state, "boards/gamma.html");

	assert_null(strstr(run, "<script"));
	assert_non_null(strstr(run, "&lt;script&gt;document.title=&#39;pwned&#39;;alert(1)"
				    "&lt;/script&gt;"));
	assert_non_null(strstr(run, "lost 3 records &lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_null(strstr(index, "<img"));
	assert_null(strstr(gamma, "<img"));
	assert_non_null(strstr(gamma, "6.16.0&lt;img src=x onerror=alert(1)&gt;"));
	free(run), free(index), free(gamma);
}

/* Every relative href of page (in directory dir) names an existing file. */
static size_t check_links(const char *dir, const char *page)
{
	char path[1024];
	char *html;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, page);
	html = slurp(path);
	assert_non_null(html);
	for (const char *p = strstr(html, "href=\""); p; p = strstr(p + 1, "href=\"")) {
		char target[512], full[1024];
		struct stat st;

		assert_int_equal(sscanf(p, "href=\"%511[^\"]\"", target), 1);
		assert_null(strstr(target, "://"));   /* no external resource, no file:// fallback */
		snprintf(full, sizeof(full), "%s/%s", dir, target);
		if (stat(full, &st) != 0)
			fail_msg("%s: link %s does not resolve", path, target);
		n++;
	}
	free(html);
	return n;
}

static void test_links_resolve(void **state)
{
	const struct fixture *fx = *state;
	const char *subdirs[] = { "boards", "runs" };
	size_t links = check_links(fx->site, "index.html");

	for (size_t s = 0; s < 2; s++) {
		char dir[256];
		DIR *d;
		struct dirent *e;

		snprintf(dir, sizeof(dir), "%s/%s", fx->site, subdirs[s]);
		d = opendir(dir);
		assert_non_null(d);
		while ((e = readdir(d)))
			if (strstr(e->d_name, ".html"))
				links += check_links(dir, e->d_name);
		closedir(d);
	}
	/* 14 runs linked from the matrix, boards and back; every page has a nav link. */
	assert_true(links > 14 * 3);
}

static void test_html_helpers(void **state)
{
	char buf[256];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	html_text(f, "<a href=\"x\">&'</a>");
	html_raw(f, "|");
	html_url(f, "a b/<c>");
	html_raw(f, "|");
	html_num(f, 12.0), html_raw(f, ","), html_num(f, 12.46), html_raw(f, ","), html_num(f, -0.5);
	fclose(f);
	assert_string_equal(text, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;|a%20b/%3Cc%3E|"
				  "12,12.5,-0.5");
	free(text);
	html_file_stem("../etc/passwd", buf, sizeof(buf));
	assert_null(strchr(buf, '/'));
	assert_true(buf[0] != '.');
	assert_int_equal(html_relative_link("/a/b/site/runs", "/a/b/logs/x.log", "/", buf,
					    sizeof(buf)), 0);
	assert_string_equal(buf, "../../logs/x.log");
	assert_int_equal(html_relative_link("/a/site/runs", "out/x.log", "/a", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../../out/x.log");
}

static void test_cli(void **state)
{
	const struct fixture *fx = *state;
	char out_dir[256];
	char *missing[] = { "dashboard", "--db", "/nonexistent/results.db", "--out", out_dir, NULL };
	char *again[] = { "dashboard", "--db", (char *)fx->db, "--out", out_dir, "--nights", "2",
			  NULL };
	char *bad[] = { "dashboard", "--nights", "many", NULL };
	FILE *sink = fopen("/dev/null", "w");
	char *html;
	char path[300];

	assert_non_null(sink);
	snprintf(out_dir, sizeof(out_dir), "%s/cli-site", fx->dir);
	assert_int_equal(cmd_dashboard_to(5, missing, sink, sink), RIG_EXIT_USAGE);
	assert_int_equal(cmd_dashboard_to(3, bad, sink, sink), RIG_EXIT_USAGE);
	assert_int_equal(cmd_dashboard_to(7, again, sink, sink), RIG_EXIT_PASS);
	fclose(sink);
	snprintf(path, sizeof(path), "%s/index.html", out_dir);
	html = slurp(path);
	assert_non_null(html);
	/* --nights 2: two night columns per board. */
	assert_int_equal(count(html, "<td class=\"cell "), N_BOARDS * 2);
	free(html);
}

/* The benchmark's generator: the history it writes renders with the sizes asked for. */
static void test_synthetic_history(void **state)
{
	const struct fixture *fx = *state;
	struct dash_synth spec = { .runs = 7, .cycles = 3, .boards = 2 };
	struct rig_err err = { 0 };
	struct dash_stats stats;
	char db[256], site[256];
	struct dash_options opt = { .db_path = db, .out_dir = site, .nights = 0 };
	char *html;

	snprintf(db, sizeof(db), "%s/synth.db", fx->dir);
	snprintf(site, sizeof(site), "%s/synth-site", fx->dir);
	assert_int_equal(dash_synth_fill(db, &spec, &err), 0);
	assert_int_equal(dash_render(&opt, &stats, &err), 0);
	assert_int_equal(stats.runs, (size_t)spec.runs);
	assert_int_equal(stats.boards, (size_t)spec.boards);
	assert_int_equal(stats.cycles, (size_t)(spec.runs * spec.cycles));
	snprintf(db, sizeof(db), "%s/synth-site/index.html", fx->dir);
	html = slurp(db);
	assert_non_null(html);
	/* 7 runs over 2 boards: 4 nights, board-01 not run on the last. */
	assert_int_equal(count(html, "<td class=\"cell "), 2 * 4);
	assert_int_equal(count(html, "<td class=\"cell none\""), 1);
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_cells),
		cmocka_unit_test(test_regression_lines),
		cmocka_unit_test(test_board_page),
		cmocka_unit_test(test_run_page),
		cmocka_unit_test(test_hostile_text_escaped),
		cmocka_unit_test(test_links_resolve),
		cmocka_unit_test(test_html_helpers),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_synthetic_history),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
