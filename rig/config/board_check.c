/* Board rules that span several keys; single keys are checked by the schema while decoding. */
#include "config/board_schema.h"

#include "deploy/deploy.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int fail_at(const struct ydoc *doc, struct rig_err *err, const char *keypath,
		   const char *what)
{
	return ydoc_error(doc, err, ydoc_lookup_line(doc, keypath), keypath, "%s", what);
}

static int check_backend_sections(const struct board *b, const struct ydoc *doc,
				  struct rig_err *err)
{
	const struct {
		const char *name;
		const void *section;
	} sections[] = {
		{ "qemu", b->power.qemu },
		{ "gpiod", b->power.gpiod },
		{ "command", b->power.command },
	};
	char key[32], what[128];

	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		bool chosen = strcmp(sections[i].name, b->power.backend) == 0;

		snprintf(key, sizeof(key), "power.%s", sections[i].name);
		if (chosen && !sections[i].section) {
			snprintf(what, sizeof(what), "section missing: power.backend is \"%s\"",
				 b->power.backend);
			return ydoc_error(doc, err, ydoc_lookup_line(doc, "power.backend"), key, "%s",
					  what);
		}
		if (!chosen && sections[i].section) {
			snprintf(what, sizeof(what), "given, but power.backend is \"%s\"",
				 b->power.backend);
			return fail_at(doc, err, key, what);
		}
	}
	return 0;
}

static int check_backend_contents(const struct board *b, const struct ydoc *doc,
				  struct rig_err *err)
{
	const struct board_gpiod *g = b->power.gpiod;
	const struct board_command *c = b->power.command;

	if (b->power.qemu && b->power.qemu->tcg_thread && strcmp(b->power.qemu->accel, "tcg") != 0)
		return fail_at(doc, err, "power.qemu.tcg_thread", "given, but power.qemu.accel is "
			       "not \"tcg\"");
	if (g && !g->power.chip && !g->button.chip)
		return fail_at(doc, err, "power.gpiod", "needs a power or a button line");
	if (c && !c->on && !c->off && !c->cycle && !c->press && !c->reset)
		return fail_at(doc, err, "power.command",
			       "needs at least one of on, off, cycle, press, reset");
	return 0;
}

/* The deploy backend's own section, and what it needs of boot: and power: (rig/deploy/). */
static int check_deploy(const struct board *b, const struct ydoc *doc, struct rig_err *err)
{
	const char *backend = b->deploy.backend;
	bool none = strcmp(backend, "none") == 0;
	char what[160];

	if (strcmp(backend, "tftp") != 0 && b->deploy.tftp)
		return fail_at(doc, err, "deploy.tftp", "given, but deploy.backend is not \"tftp\"");
	if (strcmp(backend, "command") != 0 && b->deploy.command)
		return fail_at(doc, err, "deploy.command",
			       "given, but deploy.backend is not \"command\"");
	if ((strcmp(backend, "tftp") == 0 && !b->deploy.tftp) ||
	    (strcmp(backend, "command") == 0 && !b->deploy.command)) {
		snprintf(what, sizeof(what), "section missing: deploy.backend is \"%s\"", backend);
		return ydoc_error(doc, err, ydoc_lookup_line(doc, "deploy.backend"), "deploy", "%s",
				  what);
	}
	if (strcmp(backend, "qemu") == 0 && !b->power.qemu)
		return fail_at(doc, err, "deploy.backend",
			       "\"qemu\" needs power.backend qemu (QEMU loads the kernel itself)");
	if (none && b->boot.kernel)
		return fail_at(doc, err, "boot.kernel", "given, but deploy.backend is \"none\": the "
			       "board boots what it has (choose tftp or command to deploy it)");
	if (none && (b->boot.initrd || b->boot.dtb))
		return fail_at(doc, err, b->boot.initrd ? "boot.initrd" : "boot.dtb",
			       "given, but deploy.backend is \"none\": nothing deploys it");
	if (!none && !b->boot.kernel && strcmp(backend, "qemu") != 0)
		return ydoc_error(doc, err, ydoc_lookup_line(doc, "boot"), "boot.kernel",
				  "required key missing (deploy.backend %s deploys it)", backend);
	if (!none && !b->boot.cmdline)
		return ydoc_error(doc, err, ydoc_lookup_line(doc, "boot"), "boot.cmdline",
				  "required key missing (deploy.backend %s sets the kernel's command line)",
				  backend);
	return 0;
}

static int check_console(const struct board *b, const struct ydoc *doc, struct rig_err *err)
{
	char what[96];

	if (b->console.path || strcmp(b->console.transport, "pty") == 0)
		return 0;
	snprintf(what, sizeof(what), "required key missing (transport is \"%s\")",
		 b->console.transport);
	return ydoc_error(doc, err, ydoc_lookup_line(doc, "console"), "console.path", "%s", what);
}

static bool can_press_button(const struct board *b)
{
	return b->power.qemu || (b->power.gpiod && b->power.gpiod->button.chip) ||
	       (b->power.command && b->power.command->press);
}

static int check_wake_sources(const struct board *b, const struct ydoc *doc, struct rig_err *err)
{
	char key[48];

	for (size_t i = 0; i < b->n_wake_sources; i++) {
		const char *wake = b->wake_sources[i];

		snprintf(key, sizeof(key), "sleep.wake[%zu]", i);
		if (strcmp(wake, "qmp") == 0 && !b->power.qemu)
			return fail_at(doc, err, key, "\"qmp\" needs power.backend qemu");
		if (strcmp(wake, "button") == 0 && !can_press_button(b))
			return fail_at(doc, err, key,
				       "\"button\" needs power.gpiod.button or power.command.press");
	}
	return 0;
}

/* Names other keys refer to (plans name filesystems, QEMU names disks) must be unique. */
static int check_unique(const struct ydoc *doc, struct rig_err *err, const char *list,
			const char *member, const char *(*name_of)(const struct board *, size_t),
			const struct board *b, size_t n)
{
	char key[96], what[160];

	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++) {
			if (strcmp(name_of(b, i), name_of(b, j)) != 0)
				continue;
			snprintf(key, sizeof(key), "%s[%zu].%s", list, i, member);
			snprintf(what, sizeof(what), "\"%s\" already used by %s[%zu]", name_of(b, i),
				 list, j);
			return fail_at(doc, err, key, what);
		}
	}
	return 0;
}

static const char *disk_id(const struct board *b, size_t i)
{
	return b->power.qemu->disks[i].id;
}

static const char *filesystem_name(const struct board *b, size_t i)
{
	return b->filesystems[i].name;
}

/* A name that becomes part of a file name or a kernel command line word. */
static bool plain_word(const char *s, const char *extra)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || strchr(extra, *s)))
			return false;
	return true;
}

/* A volatile disk's id names its nbdkit socket and log in the run directory. */
static int check_volatile_disks(const struct board *b, const struct ydoc *doc,
				struct rig_err *err)
{
	char key[64];

	for (size_t i = 0; b->power.qemu && i < b->power.qemu->n_disks; i++) {
		const struct board_disk *d = &b->power.qemu->disks[i];

		snprintf(key, sizeof(key), "power.qemu.disks[%zu].id", i);
		if (d->volatile_cache && !plain_word(d->id, ""))
			return fail_at(doc, err, key, "a volatile_cache disk's id names files: "
				       "letters, digits, '-' and '_' only");
	}
	return 0;
}

/* Mount options reach the board on the kernel command line the rig boots it with
 * (rig.mountopts.NAME=OPTIONS, image/storage.sh): only a deploy that sets it can. */
static int check_mount_options(const struct board *b, const struct ydoc *doc,
			       struct rig_err *err)
{
	char key[64];

	for (size_t i = 0; i < b->n_filesystems; i++) {
		const struct board_filesystem *fs = &b->filesystems[i];

		if (!fs->options)
			continue;
		snprintf(key, sizeof(key), "filesystems[%zu].options", i);
		if (!deploy_can_set_cmdline(b))
			return fail_at(doc, err, key, "needs a deploy that sets the kernel command "
				       "line (the rig passes them on it)");
		if (!plain_word(fs->options, ",=.:/+") || !plain_word(fs->name, ""))
			return fail_at(doc, err, key, "one word of letters, digits and -_,=.:/+ "
				       "(and a filesystem name of letters, digits, '-' and '_')");
	}
	return 0;
}

int board_check(const struct board *b, const struct ydoc *doc, struct rig_err *err)
{
	if (check_backend_sections(b, doc, err) || check_backend_contents(b, doc, err) ||
	    check_deploy(b, doc, err) || check_console(b, doc, err) ||
	    check_wake_sources(b, doc, err) || check_volatile_disks(b, doc, err) ||
	    check_mount_options(b, doc, err))
		return -1;
	if (b->power.qemu && check_unique(doc, err, "power.qemu.disks", "id", disk_id, b,
					  b->power.qemu->n_disks))
		return -1;
	return check_unique(doc, err, "filesystems", "name", filesystem_name, b, b->n_filesystems);
}
