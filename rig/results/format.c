#include "results/format.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <time.h>

#include "results/table.h"

#define CELL 64

/* A scalar as text in buf; NULL for JSON null or a missing key (the table prints "-"). */
static const char *scalar(json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else
		return NULL;
	return buf;
}

static const char *field(json_t *obj, const char *key, char *buf, size_t len)
{
	return scalar(json_object_get(obj, key), buf, len);
}

static const char *local_time(json_t *v, char *buf, size_t len)
{
	time_t t;
	struct tm tm;

	if (!json_is_number(v))
		return NULL;
	t = (time_t)json_number_value(v);
	if (!localtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		return NULL;
	return buf;
}

static const char *duration(json_t *obj, char *buf, size_t len)
{
	json_t *start = json_object_get(obj, "started_at"), *end = json_object_get(obj, "ended_at");
	double s;

	if (!json_is_number(start) || !json_is_number(end))
		return NULL;
	s = json_number_value(end) - json_number_value(start);
	if (s < 60)
		snprintf(buf, len, "%.1fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
	else
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
	return buf;
}

static const char *knob(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v))
		return NULL;
	return json_integer_value(v) ? "on" : "off";
}

static const char *cycle_count(json_t *run, char *buf, size_t len)
{
	json_int_t n = json_integer_value(json_object_get(run, "n_cycles"));
	json_int_t failed = json_integer_value(json_object_get(run, "n_cycles_failed"));

	if (failed)
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT " (%" JSON_INTEGER_FORMAT " not pass)", n,
			 failed);
	else
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, n);
	return buf;
}

static int print_table(FILE *out, struct text_table *t)
{
	int ret = t ? text_table_print(t, out) : -1;

	text_table_free(t);
	return ret;
}

static int add_run_row(struct text_table *t, json_t *run)
{
	char id[CELL], started[CELL], dur[CELL], cycles[CELL], exit_code[CELL];
	const char *cells[] = {
		field(run, "id", id, CELL), field(run, "board", NULL, 0),
		field(run, "plan", NULL, 0),
		local_time(json_object_get(run, "started_at"), started, CELL),
		duration(run, dur, CELL), field(run, "kernel_version", NULL, 0),
		knob(run, "knob_freeze_filesystems"), cycle_count(run, cycles, CELL),
		field(run, "status", NULL, 0), field(run, "exit_code", exit_code, CELL),
	};

	return text_table_add_row(t, cells);
}

int results_format_runs(FILE *out, json_t *runs)
{
	static const char *const headers[] = {
		"ID", "BOARD", "PLAN", "STARTED", "DURATION", "KERNEL", "FREEZE_FS", "CYCLES",
		"STATUS", "EXIT",
	};
	struct text_table *t;
	json_t *run;
	size_t i;

	/* Before the table is made: "no runs" used to return with it still allocated. */
	if (json_array_size(runs) == 0)
		return fprintf(out, "no runs\n") < 0 ? -1 : 0;
	t = text_table_new(headers, sizeof(headers) / sizeof(headers[0]));
	json_array_foreach(runs, i, run)
		if (t && add_run_row(t, run)) {
			text_table_free(t);
			return -1;
		}
	return print_table(out, t);
}

/* Add a (label, value) row per field: table columns keyed by the run's JSON members. */
static int add_plain_fields(struct text_table *t, json_t *run)
{
	static const char *const keys[] = {
		"id", "board", "board_file", "plan", "plan_file", "source", "lava_job_id", "lava_server", "night",
		"kernel_version", "kernel_sha", "freeze_series", "status", "exit_code", "console_log",
		"host", "rig_version",
	};
	char buf[CELL];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (text_table_add_row(t, (const char *const[]){ keys[i],
				       field(run, keys[i], buf, CELL) }))
			return -1;
	return 0;
}

static int add_derived_fields(struct text_table *t, json_t *run)
{
	char when[CELL], dur[CELL];
	const char *const rows[][2] = {
		{ "freeze_filesystems", knob(run, "knob_freeze_filesystems") },
		{ "sync_on_suspend", knob(run, "knob_sync_on_suspend") },
		{ "started", local_time(json_object_get(run, "started_at"), when, CELL) },
		{ "duration", duration(run, dur, CELL) },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (text_table_add_row(t, rows[i]))
			return -1;
	return 0;
}

/* "field  value" lines for the run's own fields. */
static int format_run_fields(FILE *out, json_t *run)
{
	static const char *const headers[] = { "FIELD", "VALUE" };
	struct text_table *t = text_table_new(headers, 2);

	if (t && (add_plain_fields(t, run) || add_derived_fields(t, run))) {
		text_table_free(t);
		return -1;
	}
	return print_table(out, t);
}

static int add_cycle_row(struct text_table *t, json_t *c)
{
	char idx[CELL], dur[CELL];
	const char *cells[] = {
		field(c, "idx", idx, CELL), field(c, "step_kind", NULL, 0),
		field(c, "status", NULL, 0), field(c, "hang_phase", NULL, 0), duration(c, dur, CELL),
		field(c, "kernel_version", NULL, 0), knob(c, "knob_freeze_filesystems"),
		field(c, "step_desc", NULL, 0),
	};

	return text_table_add_row(t, cells);
}

static int add_verdict_rows(struct text_table *t, json_t *c)
{
	char idx[CELL];
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(c, "verdicts"), i, v) {
		const char *cells[] = {
			field(c, "idx", idx, CELL), field(v, "name", NULL, 0),
			field(v, "filesystem", NULL, 0), field(v, "result", NULL, 0),
			field(v, "known_issue", NULL, 0), field(v, "detail", NULL, 0),
		};
		if (text_table_add_row(t, cells))
			return -1;
	}
	return 0;
}

/* Append to buf at *used, never past size. */
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	*used = n < 0 ? size : *used + (size_t)n;
}

void results_wake_describe(const struct results_wake *w, char *buf, size_t size)
{
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	append(buf, size, &used, "%s", w->wake ? w->wake : "?");
	if (w->requested_ms >= 0)
		append(buf, size, &used, " alarm %lld ms", (long long)w->requested_ms);
	if (w->entry_ms >= 0)
		append(buf, size, &used, " (asleep %lld ms after arming)", (long long)w->entry_ms);
	if (w->rescued)
		append(buf, size, &used, ", woken by the rig");
	if (w->asleep_ms >= 0)
		append(buf, size, &used, ": asleep %lld ms, awake %lld ms", (long long)w->asleep_ms,
		       (long long)w->awake_ms);
	else
		append(buf, size, &used, ": time asleep unavailable");
	if (w->irq >= 0)
		append(buf, size, &used, "; irq %lld (%s)", (long long)w->irq,
		       w->irq_name ? w->irq_name : "unnamed");
	else
		append(buf, size, &used, "; wakeup irq unavailable");
	append(buf, size, &used, "; sources %s",
	       !w->sources ? "unavailable" : w->sources[0] ? w->sources : "none counted");
}

static int64_t json_ms(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static int add_wake_rows(struct text_table *t, json_t *c)
{
	json_t *w = json_object_get(c, "wake");
	char idx[CELL], text[512];
	struct results_wake wake;

	if (!json_is_object(w))
		return 0;
	wake = (struct results_wake){
		.wake = json_string_value(json_object_get(w, "wake")),
		.requested_ms = json_ms(w, "requested_ms"), .entry_ms = json_ms(w, "entry_ms"),
		.asleep_ms = json_ms(w, "asleep_ms"), .awake_ms = json_ms(w, "awake_ms"),
		.irq = json_ms(w, "irq"), .irq_name = json_string_value(json_object_get(w, "irq_name")),
		.sources = json_string_value(json_object_get(w, "sources")),
		.rescued = json_ms(w, "rescued") == 1,
	};
	results_wake_describe(&wake, text, sizeof(text));
	return text_table_add_row(t, (const char *const[]){ field(c, "idx", idx, CELL), text });
}

static const char *word_or(json_t *obj, const char *key, const char *missing)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : missing;
}

/* A hibernation's mode and path: "platform (kernel platform): went s4, came back restored, as
 * asked"; a hybrid sleep says whether a power cut was asked and done. */
static int add_hibernation_rows(struct text_table *t, json_t *c)
{
	json_t *h = json_object_get(c, "hibernation");
	char idx[CELL], text[256];

	if (!json_is_object(h))
		return 0;
	snprintf(text, sizeof(text), "%s%s (kernel %s): went %s%s, came back %s, %s",
		 word_or(h, "asked", "?"), json_ms(h, "power_cut_asked") == 1 ? " power_cut" : "",
		 word_or(h, "kernel_mode", "unknown"), word_or(h, "went", "?"),
		 json_ms(h, "power_cut") == 1 ? ", power cut by the rig" : "",
		 word_or(h, "came_back", "?"), json_ms(h, "matched") == 1 ? "as asked" : "NOT as asked");
	return text_table_add_row(t, (const char *const[]){ field(c, "idx", idx, CELL), text });
}

/* Only runs with a cycle that has the object (a suspend's wake from schema 7, a hibernation's
 * path from schema 8) get its table. */
static bool any_cycle_has(json_t *run, const char *key)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(run, "cycles"), i, c)
		if (json_is_object(json_object_get(c, key)))
			return true;
	return false;
}

static int add_measurement_rows(struct text_table *t, json_t *c)
{
	char idx[CELL], value[CELL];
	json_t *m;
	size_t i;

	json_array_foreach(json_object_get(c, "measurements"), i, m) {
		const char *cells[] = {
			field(c, "idx", idx, CELL), field(m, "name", NULL, 0),
			field(m, "filesystem", NULL, 0), field(m, "value", value, CELL),
			field(m, "unit", NULL, 0),
		};
		if (text_table_add_row(t, cells))
			return -1;
	}
	return 0;
}

/* One table over every cycle of the run; add_rows adds the rows one cycle contributes. */
static int cycles_table(FILE *out, json_t *run, const char *title, const char *const *headers,
			size_t n_headers, int (*add_rows)(struct text_table *, json_t *))
{
	struct text_table *t = text_table_new(headers, n_headers);
	json_t *c;
	size_t i;

	if (fprintf(out, "\n%s:\n", title) < 0)
		return -1;
	json_array_foreach(json_object_get(run, "cycles"), i, c)
		if (t && add_rows(t, c)) {
			text_table_free(t);
			return -1;
		}
	return print_table(out, t);
}

static int add_artefact_row(struct text_table *t, json_t *a)
{
	char cycle[CELL];
	const char *cells[] = {
		field(a, "cycle_id", cycle, CELL), field(a, "kind", NULL, 0), field(a, "path", NULL, 0),
	};

	return text_table_add_row(t, cells);
}

static int artefacts_table(FILE *out, json_t *run)
{
	static const char *const headers[] = { "CYCLE_ID", "KIND", "PATH" };
	struct text_table *t = text_table_new(headers, 3);
	json_t *a;
	size_t i;

	if (fprintf(out, "\nartefacts:\n") < 0)
		return -1;
	json_array_foreach(json_object_get(run, "artefacts"), i, a)
		if (t && add_artefact_row(t, a)) {
			text_table_free(t);
			return -1;
		}
	return print_table(out, t);
}

#define BUDGET_PHASES_MAX 16

/* Seconds with ms precision; "?" for a phase the evidence did not show (never 0). */
static const char *seconds(json_t *v, char *buf, size_t len)
{
	if (!json_is_number(v))
		return "?";
	snprintf(buf, len, "%.3f", json_number_value(v));
	return buf;
}

/* The run's time budget per phase (time_budget of results_query_run()). */
static int budget_summary(FILE *out, json_t *budget)
{
	static const char *const headers[] = {
		"PHASE", "CYCLES", "UNKNOWN", "TOTAL_S", "MEAN_S", "MAX_S", "SLOWEST_CYCLE",
	};
	struct text_table *t = text_table_new(headers, 7);
	json_t *p;
	size_t i;

	if (fprintf(out, "\ntime budget (seconds per phase over the cycles that showed it; "
		    "rig/README.md):\n") < 0)
		return -1;
	json_array_foreach(budget, i, p) {
		char known[CELL], unknown[CELL], total[CELL], mean[CELL], max[CELL], slow[CELL];
		const char *cells[] = {
			field(p, "phase", NULL, 0), field(p, "cycles_known", known, CELL),
			field(p, "cycles_unknown", unknown, CELL),
			seconds(json_object_get(p, "total_s"), total, CELL),
			seconds(json_object_get(p, "mean_s"), mean, CELL),
			seconds(json_object_get(p, "max_s"), max, CELL),
			field(p, "slowest_cycle", slow, CELL),
		};
		if (t && text_table_add_row(t, cells)) {
			text_table_free(t);
			return -1;
		}
	}
	return print_table(out, t);
}

/* One row per cycle, one column per phase: where each cycle's time went. */
static int budget_per_cycle(FILE *out, json_t *run, json_t *budget)
{
	const char *headers[BUDGET_PHASES_MAX + 1] = { "CYCLE" };
	size_t n = json_array_size(budget) < BUDGET_PHASES_MAX ? json_array_size(budget)
								 : BUDGET_PHASES_MAX;
	struct text_table *t;
	json_t *c;
	size_t i;

	for (i = 0; i < n; i++)
		headers[i + 1] = field(json_array_get(budget, i), "phase", NULL, 0);
	if (!(t = text_table_new(headers, n + 1)) ||
	    fprintf(out, "\ntime budget per cycle (seconds; ? unknown):\n") < 0) {
		text_table_free(t);
		return -1;
	}
	json_array_foreach(json_object_get(run, "cycles"), i, c) {
		char idx[CELL], cell[BUDGET_PHASES_MAX][CELL];
		const char *cells[BUDGET_PHASES_MAX + 1] = { field(c, "idx", idx, CELL) };
		json_t *ph;
		size_t k;

		for (size_t j = 0; j < n; j++)
			cells[j + 1] = "?";
		json_array_foreach(json_object_get(c, "phases"), k, ph)
			for (size_t j = 0; j < n; j++)
				if (json_equal(json_object_get(ph, "phase"),
					       json_object_get(json_array_get(budget, j), "phase")))
					cells[j + 1] = seconds(json_object_get(ph, "seconds"), cell[j], CELL);
		if (text_table_add_row(t, cells)) {
			text_table_free(t);
			return -1;
		}
	}
	return print_table(out, t);
}

static int time_budget(FILE *out, json_t *run)
{
	json_t *budget = json_object_get(run, "time_budget");

	if (json_array_size(budget) == 0)
		return 0;         /* cycles stored before schema 4, or by rig lava import */
	return budget_summary(out, budget) || budget_per_cycle(out, run, budget) ? -1 : 0;
}

/* Seconds with 0.1 s precision, or a share of the window in percent; "-" when unavailable. */
static const char *tenths(json_t *v, char *buf, size_t len)
{
	if (!json_is_number(v))
		return "-";
	snprintf(buf, len, "%.1f", json_number_value(v));
	return buf;
}

static const char *share(json_t *part, json_t *window, char *buf, size_t len)
{
	if (!json_is_number(part) || !json_is_number(window) || json_number_value(window) <= 0)
		return "-";
	snprintf(buf, len, "%.0f", json_number_value(part) * 100 / json_number_value(window));
	return buf;
}

/* The host's CPU accounting per cycle (judge/starvation.h): only where the board ran on this
 * host; the detail says why a reclassified cycle is infra. */
static int host_cpu_table(FILE *out, json_t *run)
{
	static const char *const headers[] = {
		"CYCLE", "WINDOW", "WINDOW_S", "QEMU_CPU_S", "QEMU_WAIT_S", "WAIT_%", "PSI_%",
		"STARVED", "RECLASSIFIED",
	};
	struct text_table *t = NULL;
	json_t *c;
	size_t i;
	int rows = 0;

	json_array_foreach(json_object_get(run, "cycles"), i, c) {
		json_t *h = json_object_get(c, "host_cpu");
		char idx[CELL], win[CELL], cpu[CELL], wait[CELL], wshare[CELL], psi[CELL];
		json_t *window = json_object_get(h, "window_s");
		const char *cells[] = {
			field(c, "idx", idx, CELL), field(h, "window_end", NULL, 0),
			tenths(window, win, CELL), tenths(json_object_get(h, "qemu_run_s"), cpu, CELL),
			tenths(json_object_get(h, "qemu_wait_s"), wait, CELL),
			share(json_object_get(h, "qemu_wait_s"), window, wshare, CELL),
			share(json_object_get(h, "psi_some_s"), window, psi, CELL),
			json_integer_value(json_object_get(h, "starved")) ? "yes" : "no",
			json_integer_value(json_object_get(h, "reclassified")) ? "yes" : "no",
		};

		if (!json_is_object(h) || !json_integer_value(json_object_get(h, "applicable")))
			continue;
		if (!rows++ && (fprintf(out, "\nhost CPU (a board run by QEMU on this host; "
					"judge/starvation.h):\n") < 0 ||
				!(t = text_table_new(headers, 9))))
			return -1;
		if (text_table_add_row(t, cells)) {
			text_table_free(t);
			return -1;
		}
	}
	return rows ? print_table(out, t) : 0;
}

/* Print text with every line indented and control characters (other than newline) masked. */
static int print_indented(FILE *out, const char *text)
{
	bool line_start = true;

	for (const char *p = text; *p; p++) {
		int c = (unsigned char)*p;

		if (line_start && fputs("    ", out) == EOF)
			return -1;
		line_start = c == '\n';
		if (!line_start && (c < 0x20 || c == 0x7f))
			c = '?';
		if (fputc(c, out) == EOF)
			return -1;
	}
	if (!line_start && fputc('\n', out) == EOF)
		return -1;
	return 0;
}

/* A hung cycle's console tail is the first thing anyone wants to read about it. */
static int hang_tails(FILE *out, json_t *run)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(run, "cycles"), i, c) {
		const char *tail = json_string_value(json_object_get(c, "console_tail"));
		const char *phase = json_string_value(json_object_get(c, "hang_phase"));

		if (!tail)
			continue;
		if (fprintf(out, "\nconsole tail of cycle %" JSON_INTEGER_FORMAT " (hang in %s):\n",
			    json_integer_value(json_object_get(c, "idx")), phase ? phase : "?") < 0 ||
		    print_indented(out, tail))
			return -1;
	}
	return 0;
}

int results_format_run(FILE *out, json_t *run)
{
	static const char *const cycle_h[] = {
		"IDX", "STEP", "STATUS", "HANG_PHASE", "DURATION", "KERNEL", "FREEZE_FS", "DESC",
	};
	static const char *const verdict_h[] = {
		"CYCLE", "VERDICT", "FILESYSTEM", "RESULT", "KNOWN_ISSUE", "DETAIL",
	};
	static const char *const measure_h[] = { "CYCLE", "MEASUREMENT", "FILESYSTEM", "VALUE", "UNIT" };
	static const char *const wake_h[] = { "CYCLE", "WAKE" };
	static const char *const hibernation_h[] = { "CYCLE", "HIBERNATION" };

	if (format_run_fields(out, run) ||
	    cycles_table(out, run, "cycles", cycle_h, 8, add_cycle_row) ||
	    cycles_table(out, run, "verdicts", verdict_h, 6, add_verdict_rows) ||
	    cycles_table(out, run, "measurements", measure_h, 5, add_measurement_rows) ||
	    (any_cycle_has(run, "wake") && cycles_table(out, run, "wakes", wake_h, 2, add_wake_rows)) ||
	    (any_cycle_has(run, "hibernation") &&
	     cycles_table(out, run, "hibernations", hibernation_h, 2, add_hibernation_rows)) ||
	    time_budget(out, run) || host_cpu_table(out, run) || hang_tails(out, run))
		return -1;
	return artefacts_table(out, run);
}
