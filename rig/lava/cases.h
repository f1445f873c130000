/* Test-case results of one LAVA job, as its dispatcher log or the server's REST API gives them,
 * before they become rig results (import.h). */
#ifndef RIG_LAVA_CASES_H
#define RIG_LAVA_CASES_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

struct lava_case {
	char *suite;          /* "1_cycle-003-suspend", "0_rig-setup", "lava" */
	char *name;           /* "stall.nvme-ext4", "clean-resume", "hang.resume" */
	char *result;         /* pass | fail | skip | unknown (as LAVA wrote it) */
	bool has_measurement;
	double measurement;
	char *units;          /* NULL when none */
	char *error_type;     /* LAVA's classification of a failed job: Infrastructure, Job, Test, ...;
			       * NULL when none */
	char *error_msg;
	double logged;        /* unix seconds; 0 = unknown */
};

/* One line of the board's console as LAVA logged it (lvl: target). */
struct lava_console_line {
	double logged;        /* unix seconds; 0 = unknown */
	char *text;
};

/* A job as the rig reads it: its test cases and, from a dispatcher log, the board's console
 * (where the test definitions' evidence records are: lava/evidence.h). */
struct lava_cases {
	struct lava_case *v;
	size_t n, cap;
	struct lava_console_line *console;
	size_t n_console, cap_console;
};

void lava_cases_free(struct lava_cases *cases);
/* Append a case; every string is copied (NULL allowed for units). */
int lava_cases_add(struct lava_cases *cases, const struct lava_case *c, struct rig_err *err);

/* Append one console line (copied). */
int lava_console_add(struct lava_cases *cases, double logged, const char *text,
		     struct rig_err *err);

/* A dispatcher log (lava-run's output.yaml or a server's job log): one YAML mapping per line,
 * optionally as a list item; the lines with lvl: results carry the cases, those with lvl: target
 * the board's console. */
int lava_cases_from_log(const char *path, struct lava_cases *cases, struct rig_err *err);
/* The same from a log's text (a server's /api/v0.2/jobs/<id>/logs/ answer: that is where a
 * job's evidence is, its /tests/ hold no verdicts of the rig's own test definitions); origin
 * names it in errors. */
int lava_cases_from_log_text(const char *text, size_t len, const char *origin,
			     struct lava_cases *cases, struct rig_err *err);
/* A REST export of /api/v0.2/jobs/<id>/tests/: {"results": [...]} or the bare list. */
int lava_cases_from_rest(const char *path, struct lava_cases *cases, struct rig_err *err);

/* One item of such an answer; suite_names maps suite ids to names ({"12": "0_rig-setup"}, may be
 * NULL); origin names the file or URL in errors. */
struct json_t;
int lava_cases_add_rest_item(const char *origin, size_t index, struct json_t *item,
			     struct json_t *suite_names, struct lava_cases *cases, struct rig_err *err);

/* "2023-01-31T12:00:01.123456" (UTC, optional Z or +00:00) -> unix seconds; 0 when unparsable. */
double lava_parse_time(const char *text);

/* Suite names: LAVA's "N_" ordering prefix stripped ("1_cycle-003-suspend" -> "cycle-003-suspend"). */
const char *lava_bare_suite(const char *suite);
/* "1_cycle-003-suspend" -> 3 and "suspend"; -1 when the suite is not a cycle. */
int lava_cycle_of_suite(const char *suite, char *kind, size_t kind_size);

#endif
