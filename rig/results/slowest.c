/* The slowest devices per board, kernel and phase, for people (a table) or machines (JSON). */
#include "results/slowest.h"

#include <inttypes.h>
#include <jansson.h>

#include "results/table.h"

static const char *const headers[] = {
	"board", "kernel", "phase", "device", "driver", "cycles", "nights", "mean ms", "max ms",
	"last night ms", "errors", "worst cycle",
};
#define N_COLS (sizeof(headers) / sizeof(headers[0]))

struct collect {
	struct text_table *table;
	json_t *rows;
	size_t n;
};

static int add_text(void *ctx, const struct results_slow_device *d)
{
	struct collect *c = ctx;
	char cycles[32], nights[16], mean[24], max[24], last[48], errors[16], worst[48];
	const char *cells[N_COLS];

	snprintf(cycles, sizeof(cycles), "%d/%d", d->cycles, d->traced);
	snprintf(nights, sizeof(nights), "%d", d->nights);
	snprintf(mean, sizeof(mean), "%.3f", d->mean_us / 1e3);
	snprintf(max, sizeof(max), "%.3f", d->max_us / 1e3);
	snprintf(last, sizeof(last), "%.3f (%s)", d->last_night_mean_us / 1e3,
		 d->last_night ? d->last_night : "?");
	snprintf(errors, sizeof(errors), "%d", d->errors);
	snprintf(worst, sizeof(worst), "run %" PRId64 " #%d", d->worst_run, d->worst_cycle);
	cells[0] = d->board, cells[1] = d->kernel_version, cells[2] = d->phase;
	cells[3] = d->name, cells[4] = d->driver, cells[5] = cycles, cells[6] = nights;
	cells[7] = mean, cells[8] = max, cells[9] = last, cells[10] = errors, cells[11] = worst;
	c->n++;
	return text_table_add_row(c->table, cells);
}

static int add_json(void *ctx, const struct results_slow_device *d)
{
	struct collect *c = ctx;
	json_t *o = json_pack("{ss ss ss ss ss si si si si sf sf ss? sf sI si}",
			      "board", d->board, "kernel", d->kernel_version, "phase", d->phase,
			      "device", d->name, "driver", d->driver, "cycles", d->cycles,
			      "cycles_traced", d->traced, "nights", d->nights, "errors", d->errors,
			      "mean_us", d->mean_us, "max_us", d->max_us, "last_night", d->last_night,
			      "last_night_mean_us", d->last_night_mean_us,
			      "worst_run", (json_int_t)d->worst_run, "worst_cycle", d->worst_cycle);

	c->n++;
	return o ? json_array_append_new(c->rows, o) : -1;
}

int results_print_slowest(struct results_db *db, const struct results_slow_filter *filter,
			  bool json, FILE *out, struct rig_err *err)
{
	struct collect c = { 0 };
	int ret;

	if (json ? !(c.rows = json_array()) : !(c.table = text_table_new(headers, N_COLS)))
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	ret = results_slowest_devices(db, filter, json ? add_json : add_text, &c, err);
	if (ret > 0)
		ret = rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	if (ret == 0 && json) {
		json_t *doc = json_pack("{sO}", "slowest_devices", c.rows);

		if (!doc || json_dumpf(doc, out, JSON_INDENT(2) | JSON_SORT_KEYS) || fputc('\n', out) == EOF)
			ret = rig_err_set(err, RIG_EXIT_INFRA, "cannot write JSON output");
		json_decref(doc);
	} else if (ret == 0 && c.n == 0) {
		if (fputs("no per-device timelines stored (plans with `timeline: true`)\n", out) == EOF)
			ret = rig_err_set(err, RIG_EXIT_INFRA, "cannot write output");
	} else if (ret == 0 && text_table_print(c.table, out)) {
		ret = rig_err_set(err, RIG_EXIT_INFRA, "cannot write output");
	}
	json_decref(c.rows);
	text_table_free(c.table);
	return ret;
}
