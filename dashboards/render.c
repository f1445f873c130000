#include "dashboards/render.h"

#include "util/clock.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dashboards/model.h"
#include "dashboards/pages.h"
#include "results/read.h"

static int make_dir(const char *path, struct rig_err *err)
{
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return 0;
	return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: cannot create %s: %s", path,
			   strerror(errno));
}

/* mkdir -p: the output directory and its parents, then boards/, runs/ and bisects/ inside it. */
static int make_dirs(const char *out, struct rig_err *err)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s", out) >= (int)sizeof(path) - 10)
		return rig_err_set(err, RIG_EXIT_USAGE, "dashboard: output path too long");
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (make_dir(path, err))
				return -1;
			*p = '/';
		}
	if (make_dir(path, err))
		return -1;
	snprintf(path, sizeof(path), "%s/boards", out);
	if (make_dir(path, err))
		return -1;
	snprintf(path, sizeof(path), "%s/runs", out);
	if (make_dir(path, err))
		return -1;
	snprintf(path, sizeof(path), "%s/bisects", out);
	return make_dir(path, err);
}

static int write_site(const struct dash_site *site, struct results_db *db,
		      struct dash_stats *stats, struct rig_err *err)
{
	struct dash_model model;
	int ret;

	if (dash_model_load(db, &model, err))
		return -1;
	/* Index last: a half-written site never shows a matrix linking to missing pages. */
	ret = dash_write_run_pages(site, db, &model, &stats->cycles, err);
	if (!ret)
		ret = dash_write_board_pages(site, &model, err);
	if (!ret)
		ret = dash_write_bisect_pages(site, &model, err);
	if (!ret)
		ret = dash_write_index(site, &model, err);
	stats->boards = model.n_boards;
	stats->runs = model.n_runs;
	dash_model_free(&model);
	return ret;
}

static void format_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, size, "?");
}

int dash_render(const struct dash_options *opt, struct dash_stats *stats, struct rig_err *err)
{
	char out_abs[PATH_MAX], cwd[PATH_MAX], generated[64];
	struct dash_site site = { .out_dir = opt->out_dir, .out_abs = out_abs, .cwd = cwd,
				  .nights = opt->nights, .generated = generated };
	double start = monotonic_seconds();
	struct results_db *db;
	int ret;

	*stats = (struct dash_stats){ 0 };
	format_now(generated, sizeof(generated));
	if (make_dirs(opt->out_dir, err))
		return -1;
	if (!realpath(opt->out_dir, out_abs) || !getcwd(cwd, sizeof(cwd)))
		return rig_err_set(err, RIG_EXIT_INFRA, "dashboard: %s: %s", opt->out_dir,
				   strerror(errno));
	if (results_open(opt->db_path, RESULTS_OPEN_READ, &db, err))
		return -1;
	/* One read transaction: every page sees the same snapshot while a rig keeps writing. */
	ret = results_read_begin(db, err);
	if (!ret)
		ret = write_site(&site, db, stats, err);
	results_read_end(db);
	results_close(db);
	stats->seconds = monotonic_seconds() - start;
	return ret;
}
