/* shell_quote(): the exact words it writes, and sh reading each back as the string it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/placeholder.h"
#include "util/shell_quote.h"

static char *quoted(const char *s)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	assert_int_equal(shell_quote(out, s), 0);
	assert_int_equal(fclose(out), 0);
	return text;
}

/* What `sh -c "printf %s WORDS"` prints: the words as sh parsed them. */
static char *sh_printf(const char *words)
{
	char *cmd = NULL, buf[4096];
	size_t n = 0;
	ssize_t r;
	int fds[2], status;
	pid_t pid;

	assert_true(asprintf(&cmd, "printf %%s %s", words) > 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[1], 1);
		dup2(null, 2);   /* the negative control's strings make sh complain */
		close(fds[0]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (n < sizeof(buf) - 1 && (r = read(fds[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	free(cmd);
	return strdup(buf);
}

static const char *const nasty[] = {
	"", "plain", "two words", "it's", "''", "a\"b", "$(touch /tmp/x)", ";rm -rf /;", "`id`",
	"back\\slash", "tab\tand\nnewline", "$HOME ${PATH} $1 $@ *", "-n", "{out}", "'\\''",
};

static void quoting_is_exact(void **state)
{
	const struct {
		const char *in, *want;
	} cases[] = {
		{ "", "''" }, { "a b", "'a b'" }, { "it's", "'it'\\''s'" }, { "$x", "'$x'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = quoted(cases[i].in);

		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void sh_reads_back_each_string(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(nasty) / sizeof(nasty[0]); i++) {
		char *word = quoted(nasty[i]), *back = sh_printf(word), *same = shell_quoted(nasty[i]);

		assert_string_equal(back, nasty[i]);
		assert_string_equal(same, word);   /* the malloc'ing form (lava/render.c) */
		free(word);
		free(back);
		free(same);
	}
}

/* Negative control: the same strings unquoted do not survive sh, so the check above can fail. */
static void unquoted_strings_do_not_survive(void **state)
{
	size_t changed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(nasty) / sizeof(nasty[0]); i++) {
		char *back;

		if (strchr(nasty[i], '`') || strstr(nasty[i], "$(") || strstr(nasty[i], "rm "))
			continue;   /* never hand a real payload to sh */
		back = sh_printf(nasty[i]);
		changed += strcmp(back, nasty[i]) != 0;
		free(back);
	}
	assert_true(changed >= 6);
}

/* Placeholders in a shell command: one word wherever the template puts them. */
static void shell_placeholders_stay_one_word(void **state)
{
	const struct board_paths paths = { .out = "/o;$(x) 'q'", .top = "/t", .run = "/r" };
	const struct {
		const char *in, *want;
	} cases[] = {
		{ "{out}/x", "'/o;$(x) '\\''q'\\'''/x" },
		{ "\"a{top}b\"", "\"a\"'/t'\"b\"" },
		{ "'a{top}b'", "'a''/t''b'" },
		{ "\\{top} \\'{top}", "\\{top} \\''/t'" },
		{ "{tops} {run}", "{tops} '/r'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = placeholder_expand(cases[i].in, &paths, true);

		assert_non_null(got);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	/* and sh reads {out} back as the path, in each quoting */
	{
		char *cmd = placeholder_expand("{out}\"-{out}\"'-{out}'", &paths, true);
		char *back = sh_printf(cmd);

		assert_string_equal(back, "/o;$(x) 'q'-/o;$(x) 'q'-/o;$(x) 'q'");
		free(cmd);
		free(back);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quoting_is_exact),
		cmocka_unit_test(sh_reads_back_each_string),
		cmocka_unit_test(unquoted_strings_do_not_survive),
		cmocka_unit_test(shell_placeholders_stay_one_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
