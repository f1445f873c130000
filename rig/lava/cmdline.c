#include <stdlib.h>
#include <string.h>

#include "lava/render.h"
#include "lava/text.h"

/* Without these the console goes quiet exactly when a suspend or resume goes wrong. */
static const char *const required_args[] = {
	"console=ttyS0,115200", "no_console_suspend", "printk.devkmsg=on", "loglevel=7", "rig.lava=1",
};

/* The QEMU board's initramfs runs its agent, not a shell: start busybox sh, which sources the
 * overlay jobs/image/rig-lava-env.sh (the kernel hands ENV=... to init as environment). */
static const char *const qemu_shell_args[] = {"rdinit=/bin/sh", "ENV=/etc/rig-lava.sh"};

static int has_word(const char *line, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = line; (p = strstr(p, word)); p += n)
		if ((p == line || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* A key already given with another value (console=ttyS2,..., loglevel=6) keeps the board's. */
static int has_key(const char *line, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char key[64];

	if (!eq || (size_t)(eq - arg) + 1 >= sizeof(key))
		return has_word(line, arg);
	memcpy(key, arg, (size_t)(eq - arg) + 1);
	key[eq - arg + 1] = '\0';
	for (const char *p = line; (p = strstr(p, key)); p++)
		if (p == line || p[-1] == ' ')
			return 1;
	return 0;
}

static int add_missing(struct text *t, const char *const *args, size_t n, struct rig_err *err)
{
	for (size_t i = 0; i < n; i++) {
		if (has_key(t->s, args[i]))
			continue;
		if (text_printf(t, err, "%s%s", t->len ? " " : "", args[i]))
			return -1;
	}
	return 0;
}

static int append_board_words(struct text *t, const char *cmdline, struct rig_err *err)
{
	const char *p = cmdline;

	while (*p) {
		size_t n;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		n = strcspn(p, " \n\t");
		if (!n)
			break;
		if (!(n == 5 && !strncmp(p, "quiet", 5))) {
			if (t->len && text_puts(t, " ", err))
				return -1;
			if (text_append(t, p, n, err))
				return -1;
		}
		p += n;
	}
	return text_puts(t, "", err);
}

int lava_kernel_cmdline(const char *board_cmdline, int noresume, int qemu_shell, char **out,
			struct rig_err *err)
{
	struct text t = {0};

	if (append_board_words(&t, board_cmdline ? board_cmdline : "", err) ||
	    add_missing(&t, required_args, sizeof(required_args) / sizeof(required_args[0]), err))
		goto fail;
	if (qemu_shell && add_missing(&t, qemu_shell_args, 2, err))
		goto fail;
	if (noresume && !has_word(t.s, "noresume") && text_puts(&t, " noresume", err))
		goto fail;
	*out = t.s;
	return 0;
fail:
	text_free(&t);
	return -1;
}
