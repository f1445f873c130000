#include "lava/cases.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/number.h"

static void case_free(struct lava_case *c)
{
	free(c->suite);
	free(c->name);
	free(c->result);
	free(c->units);
	free(c->error_type);
	free(c->error_msg);
}

void lava_cases_free(struct lava_cases *cases)
{
	for (size_t i = 0; i < cases->n; i++)
		case_free(&cases->v[i]);
	for (size_t i = 0; i < cases->n_console; i++)
		free(cases->console[i].text);
	free(cases->v);
	free(cases->console);
	memset(cases, 0, sizeof(*cases));
}

int lava_console_add(struct lava_cases *cases, double logged, const char *text,
		     struct rig_err *err)
{
	char *copy;

	if (cases->n_console == cases->cap_console) {
		size_t cap = cases->cap_console ? cases->cap_console * 2 : 256;
		struct lava_console_line *v = realloc(cases->console, cap * sizeof(*v));

		if (!v)
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		cases->console = v;
		cases->cap_console = cap;
	}
	if (!(copy = strdup(text)))
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	cases->console[cases->n_console++] = (struct lava_console_line){ .logged = logged, .text = copy };
	return 0;
}

static char *dup_or_null(const char *s, bool *failed)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*failed = true;
	return d;
}

int lava_cases_add(struct lava_cases *cases, const struct lava_case *c, struct rig_err *err)
{
	struct lava_case copy = *c;
	bool failed = false;

	if (cases->n == cases->cap) {
		size_t cap = cases->cap ? cases->cap * 2 : 32;
		struct lava_case *v = realloc(cases->v, cap * sizeof(*v));

		if (!v)
			return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
		cases->v = v;
		cases->cap = cap;
	}
	copy.suite = dup_or_null(c->suite ? c->suite : "", &failed);
	copy.name = dup_or_null(c->name ? c->name : "", &failed);
	copy.result = dup_or_null(c->result ? c->result : "unknown", &failed);
	copy.units = dup_or_null(c->units, &failed);
	copy.error_type = dup_or_null(c->error_type, &failed);
	copy.error_msg = dup_or_null(c->error_msg, &failed);
	if (failed) {
		case_free(&copy);
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	}
	cases->v[cases->n++] = copy;
	return 0;
}

double lava_parse_time(const char *text)
{
	struct tm tm = {0};
	const char *rest;
	double frac = 0;

	if (!text)
		return 0;
	rest = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		rest = strptime(text, "%Y-%m-%d %H:%M:%S", &tm);
	if (!rest)
		return 0;
	/* fractional seconds: ".123456", then maybe a zone ("Z", "+00:00") */
	if (*rest == '.') {
		char digits[16] = "0.";
		size_t n = strspn(rest + 1, "0123456789");

		if (n > 0 && n < sizeof(digits) - 2) {
			memcpy(digits + 2, rest + 1, n);
			digits[n + 2] = '\0';
			(void)parse_real(digits, 0, 1, &frac);
		}
	}
	return (double)timegm(&tm) + frac;
}

const char *lava_bare_suite(const char *suite)
{
	const char *p = suite;

	while (isdigit((unsigned char)*p))
		p++;
	return p != suite && *p == '_' ? p + 1 : suite;
}

int lava_cycle_of_suite(const char *suite, char *kind, size_t kind_size)
{
	const char *s = lava_bare_suite(suite);
	size_t digits;
	char number[16];
	unsigned idx;

	if (strncmp(s, "cycle-", 6))
		return -1;
	digits = strspn(s + 6, "0123456789");
	if (digits == 0 || digits >= sizeof(number) || s[6 + digits] != '-' || !s[7 + digits])
		return -1;
	memcpy(number, s + 6, digits);
	number[digits] = '\0';
	if (parse_uint(number, 0, 1000000, &idx) < 0)
		return -1;
	snprintf(kind, kind_size, "%s", s + 7 + digits);
	return (int)idx;
}
