/*
 * The run page's per-device timeline (dashboards/timeline_svg.c): drawn from a cycle's stored
 * rows (the board's recorded-style QEMU summary through the judge's parser, joined with a frozen
 * filesystem and a writer's stall, stored by the engine's store_timeline), the time asleep folded,
 * database text escaped; a cycle whose board had no power events says so; a plan without the
 * timeline draws nothing. The board page's slowest callbacks per kernel and phase over the traced
 * cycles (dashboards/slowest.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dashboards/render.h"
#include "dashboards/timeline_svg.h"
#include "engine/ctx.h"
#include "judge/timeline.h"
#include "results/db.h"
#include "tests/unit/support.h"
#include "tests/unit/timeline_fixture.h"

#define HOSTILE_DEVICE "<script>alert(1)</script>"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long size;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	return text;
}

static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_run_page_draws_the_timeline(void **state)
{
	char dir[] = "/tmp/test_dashboard_timeline.XXXXXX", db_path[128], site[128], page[160];
	struct results_run_info run_info = { .board = "qemu", .plan = "timeline",
					     .kernel_version = "7.3.4", .host = "labhost" };
	const char *unavailable[] = { "timeline=unavailable reason=no-trace-instances" };
	struct results_db *db = NULL;
	struct rig_err err = { 0 };
	struct timeline tl, none;
	struct frozen_window w;
	struct ev_stall_ops stall;
	struct tel_entry op = { .start_ns = 812584000000ULL, .end_ns = 817820000000ULL };
	struct results_cycle *c;
	struct dash_options opt = { .out_dir = site, .nights = 0 };
	struct dash_stats stats;
	int64_t run;
	char *html, *cycle1, *cycle2;

	(void)state;
	db = tl_fixture_db(dir, db_path, sizeof(db_path));
	snprintf(site, sizeof(site), "%s/site", dir);
	opt.db_path = db_path;
	assert_int_equal(results_run_begin(db, &run_info, &run, &err), 0);

	/* cycle 0: the recorded summary, a frozen filesystem and a writer's stall on its axis */
	tl_fixture_parse(&tl);
	tl_fixture_window(&w);
	tl_fixture_writer(&stall, "vda-m1a", &op, 1);
	assert_int_equal(timeline_join(&tl, &w, &stall, TL_STALL_MIN_NS, &err), 0);
	{
		struct tl_row hostile = { .kind = TL_DEVICE, .phase = TL_RESUME, .start_us = 5472300,
					  .dur_us = 3000, .count = 1, .err = -5 };

		snprintf(hostile.name, sizeof(hostile.name), HOSTILE_DEVICE);
		assert_int_equal(timeline_add(&tl, &hostile, &err), 0);
	}
	c = tl_fixture_cycle(run, 0, "7.3.4");
	assert_int_equal(store_timeline(c, &tl, &err), 0);
	tl_fixture_commit(db, c);
	/* cycle 1: a board without the power events; cycle 2: no timeline asked for */
	assert_int_equal(timeline_parse(unavailable, 1, &none, &err), 0);
	c = tl_fixture_cycle(run, 1, "7.3.4");
	assert_int_equal(store_timeline(c, &none, &err), 0);
	tl_fixture_commit(db, c);
	tl_fixture_commit(db, tl_fixture_cycle(run, 2, "7.3.4"));
	results_close(db);

	assert_int_equal(dash_render(&opt, &stats, &err), 0);
	snprintf(page, sizeof(page), "%s/runs/%lld.html", site, (long long)run);
	html = read_all(page);
	cycle1 = strstr(html, "id=\"cycle-1\"");
	cycle2 = strstr(html, "id=\"cycle-2\"");
	assert_non_null(cycle1);
	assert_non_null(cycle2);
	/* one drawing, in cycle 0's section */
	assert_int_equal(count_of(html, "<svg class=\"timeline\""), 1);
	assert_true(strstr(html, "<svg class=\"timeline\"") < cycle1);
	/* sleepgraph's rows: the device phases, each device with its driver, and the joins */
	assert_non_null(strstr(html, ">device phases</text>"));
	assert_non_null(strstr(html, ">sd 1:0:0:0</text>"));
	assert_non_null(strstr(html, ">others</text>"));
	assert_non_null(strstr(html, ">frozen vda</text>"));
	assert_non_null(strstr(html, "vdb at 233.782 ms, never ended in the trace</title>"));
	assert_non_null(strstr(html, ">writer vda-m1a</text>"));
	assert_non_null(strstr(html, "1:0:0:0 (sd) resume at 5472.291 ms, 41.377 ms</title>"));
	assert_non_null(strstr(html, "asleep 5.21 s"));
	/* a failed callback is outlined and says its error; hostile text arrives escaped */
	assert_non_null(strstr(html, "error -5</title>"));
	assert_null(strstr(html, HOSTILE_DEVICE));
	assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	/* the unavailable cycle says why; the cycle without a timeline says nothing of it */
	assert_non_null(strstr(cycle1, "per-device timeline unavailable"));
	assert_true(strstr(cycle1, "per-device timeline unavailable") < cycle2);
	assert_null(strstr(cycle2, "per-device timeline"));
	free(html);

	/* the board page: per kernel and phase the slowest callbacks over the traced cycles (one of
	 * the three: the unavailable and the untraced ones do not count), the worst cycle linked;
	 * resume's fourth slowest (0:0:0:0, 2.964 ms) is not shown */
	snprintf(page, sizeof(page), "%s/boards/qemu.html", site);
	html = read_all(page);
	assert_non_null(strstr(html, "<h2 id=\"slowest\">Slowest device callbacks</h2>"));
	assert_non_null(strstr(html, "<tr><td>7.3.4</td><td>resume</td><td>1:0:0:0</td><td>sd</td>"
				     "<td>1/1</td><td>1</td><td>41.377</td><td>41.377</td>"));
	snprintf(page, sizeof(page), "<a href=\"../runs/%lld.html#cycle-0\">", (long long)run);
	assert_non_null(strstr(html, page));
	assert_non_null(strstr(html, "<td>suspend</td><td>0:0:0:0</td><td>sd</td>"));
	assert_null(strstr(html, "<td>resume</td><td>0:0:0:0</td>"));
	assert_null(strstr(html, HOSTILE_DEVICE));
	assert_non_null(strstr(html, "<td>resume</td><td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"));
	assert_null(strstr(html, "no cycle with a per-device timeline"));
	free(html);
	timeline_free(&tl);
	timeline_free(&none);
	assert_int_equal(tl_fixture_remove(dir), 0);
}

/* The fold: the resume side starts a fixed gap after the suspend side, whatever the sleep's
 * length; without machine_suspend nothing is folded (negative control). */
static void test_asleep_folded(void **state)
{
	struct results_timeline_row rows[] = {
		{ .kind = "device", .phase = "suspend", .name = "a", .start_us = 0, .dur_us = 1000, .count = 1 },
		{ .kind = "mark", .name = "machine_suspend", .start_us = 1000, .dur_us = 60000000, .count = 1 },
		{ .kind = "device", .phase = "resume", .name = "a", .start_us = 60001000, .dur_us = 1000, .count = 1 },
	};
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&text, &size);
	svg_timeline(f, rows, 3);
	fclose(f);
	/* 2 ms awake over 760 px less the 36 px gap: the resume bar starts at 190 + 362 + 36 */
	assert_non_null(strstr(text, "<rect x=\"588\""));
	assert_non_null(strstr(text, "asleep 60.00 s"));
	free(text);

	rows[1].name = "suspend_enter";   /* not the sleep: nothing folded */
	f = open_memstream(&text, &size);
	svg_timeline(f, rows, 3);
	fclose(f);
	assert_null(strstr(text, "asleep"));
	assert_null(strstr(text, "<rect x=\"588\""));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_page_draws_the_timeline),
		cmocka_unit_test(test_asleep_folded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
