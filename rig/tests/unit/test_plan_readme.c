/* plans/README.md's option tables against plan_load(): every value a table documents for an
 * option (`a` \| `b` in its type column) loads, and a value it does not document is refused
 * with exactly the documented list ("expected one of a, b, got ..."). So a documented option
 * cannot go untested and an accepted one cannot go undocumented. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/plan.h"

#define MAX_VALUES 16

struct row {
	char step[64];      /* "" = a top-level key */
	char option[64];
	char values[MAX_VALUES][48];
	size_t n;
};

/* The type cell "`a` \| `b` \| `c`" into values; false when the cell is anything else. */
static bool enumerated(const char *cell, struct row *r)
{
	const char *p = cell;

	r->n = 0;
	while (*p == ' ')
		p++;
	while (*p == '`') {
		const char *end = strchr(p + 1, '`');

		if (!end || r->n == MAX_VALUES || (size_t)(end - p - 1) >= sizeof(r->values[0]))
			return false;
		snprintf(r->values[r->n++], sizeof(r->values[0]), "%.*s", (int)(end - p - 1), p + 1);
		p = end + 1;
		while (*p == ' ')
			p++;
		if (strncmp(p, "\\|", 2) != 0)
			break;
		p += 2;
		while (*p == ' ')
			p++;
	}
	while (*p == ' ')
		p++;
	return r->n > 1 && *p == '\0';
}

/* One table row "| `option` | type | default | meaning |" under the current step. */
static bool parse_row(const char *line, const char *step, struct row *r)
{
	char option[64], type[512];

	if (sscanf(line, "| `%63[^`]` | %511[^|\\]", option, type) != 2)
		return false;
	/* the type cell may hold "\|": take it up to the next " | " */
	const char *start = strchr(line + 2, '|');
	const char *end;

	if (!start)
		return false;
	start++;
	end = strstr(start, " | ");
	while (end && end > start && end[-1] == '\\')
		end = strstr(end + 1, " | ");
	if (!end || (size_t)(end - start) >= sizeof(type))
		return false;
	snprintf(type, sizeof(type), "%.*s", (int)(end - start), start);
	snprintf(r->step, sizeof(r->step), "%s", step);
	snprintf(r->option, sizeof(r->option), "%s", option);
	return enumerated(type, r);
}

/* Load a plan with one option set; NULL err.msg on success. */
static int load_with(const struct row *r, const char *value, struct rig_err *err)
{
	char path[] = "/tmp/rig-plan-readme.XXXXXX";
	int fd = mkstemp(path);
	struct plan *plan = NULL;
	FILE *f;
	int rc;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	if (!r->step[0])
		fprintf(f, "name: t\n%s: %s\nsteps:\n  - hibernate\n", r->option, value);
	else if (strcmp(r->step, "pm_test") == 0 && strcmp(r->option, "level") != 0)
		fprintf(f, "name: t\nsteps:\n  - pm_test: {level: freezer, %s: %s}\n", r->option, value);
	else
		fprintf(f, "name: t\nsteps:\n  - %s: {%s: %s}\n", r->step, r->option, value);
	assert_int_equal(fclose(f), 0);
	rc = plan_load(path, &plan, err);
	plan_free(plan);
	unlink(path);
	return rc;
}

static void test_every_documented_value_loads_and_no_other(void **state)
{
	char *path = top_path("plans/README.md");
	FILE *f = fopen(path, "r");
	char line[4096], step[64] = "", want[1024];
	unsigned rows = 0, values = 0;
	bool in_steps = false;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		struct row r;
		struct rig_err err = { 0 };

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "## Steps", 8) == 0)
			in_steps = true;
		if (strncmp(line, "### `", 5) == 0 && sscanf(line, "### `%63[^`]`", step) == 1)
			continue;
		if (!parse_row(line, in_steps ? step : "", &r))
			continue;
		rows++;
		for (size_t i = 0; i < r.n; i++, values++)
			if (load_with(&r, r.values[i], &err) != 0)
				fail_msg("documented %s%s%s: %s does not load: %s", r.step,
					 r.step[0] ? "." : "", r.option, r.values[i], err.msg);
		assert_int_equal(load_with(&r, "undocumented-value", &err), -1);
		snprintf(want, sizeof(want), "expected one of ");
		for (size_t i = 0; i < r.n; i++)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? ", " : "",
				 r.values[i]);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), ", got \"undocumented-value\"");
		if (!strstr(err.msg, want))
			fail_msg("%s%s%s: the loader accepts another list than the README's\n"
				 "  README: %s\n  loader: %s", r.step, r.step[0] ? "." : "", r.option,
				 want, err.msg);
	}
	fclose(f);
	free(path);
	/* on_hang, suspend mode/wake/inject/via, hibernate via, power-cut mode, pm_test level/mode */
	print_message("%u enumerated options, %u documented values loaded\n", rows, values);
	assert_true(rows >= 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_documented_value_loads_and_no_other),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
