/* `rig lava render`: the job parses, holds the deploy/boot/test actions and the metadata; the
 * text helpers behind it. (tests/lava/run.sh checks the jobs against LAVA's own schema.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "cli/lava.h"
#include "config/yaml_doc.h"
#include "lava/render.h"
#include "lava/text.h"
#include "support.h"

struct fixture {
	char dir[64];
	char job[160];
	char out[4096];
	char errout[4096];
	struct ydoc doc;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_lava_render.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ydoc_free(&f->doc);
	if (f->job[0])
		unlink(f->job);
	rmdir(f->dir);
	free(f);
	return 0;
}

static int render(struct fixture *f, const char *board, const char *plan, const char *board_name)
{
	char *argv[] = {"lava", "render", "--board", (char *)board, "--plan", (char *)plan, "--out", f->dir,
			"--night", "2026-12-03", "--kernel", "http://lab.example/k/bzImage", NULL};
	FILE *out = fmemopen(f->out, sizeof(f->out), "w");
	FILE *errout = fmemopen(f->errout, sizeof(f->errout), "w");
	int code = cmd_lava_to(12, argv, out, errout);

	fclose(out);
	fclose(errout);
	snprintf(f->job, sizeof(f->job), "%s/%s-%s.yaml", f->dir, board_name, plan);
	return code;
}

static yaml_node_t *get(struct fixture *f, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *pair = ydoc_map_pair(&f->doc, map, key);

	return pair ? ydoc_node(&f->doc, pair->value) : NULL;
}

static const char *get_str(struct fixture *f, yaml_node_t *map, const char *key)
{
	return ydoc_scalar(get(f, map, key));
}

/* Count the actions of one kind ("deploy", "boot", "test", "command"); *last gets the last. */
static int count_actions(struct fixture *f, const char *kind, yaml_node_t **last)
{
	yaml_node_t *actions = get(f, ydoc_root(&f->doc), "actions");
	int n = 0;

	assert_non_null(actions);
	assert_int_equal(actions->type, YAML_SEQUENCE_NODE);
	for (yaml_node_item_t *it = actions->data.sequence.items.start; it < actions->data.sequence.items.top; it++) {
		yaml_node_t *body = get(f, ydoc_node(&f->doc, *it), kind);

		if (body) {
			n++;
			if (last)
				*last = body;
		}
	}
	return n;
}

/* How many deploys boot a kernel with noresume. */
static int noresume_deploys(struct fixture *f)
{
	yaml_node_t *actions = get(f, ydoc_root(&f->doc), "actions");
	int n = 0;

	for (yaml_node_item_t *it = actions->data.sequence.items.start; it < actions->data.sequence.items.top; it++) {
		yaml_node_t *deploy = get(f, ydoc_node(&f->doc, *it), "deploy");

		if (deploy && strstr(get_str(f, get(f, get(f, deploy, "images"), "kernel"), "image_arg"), "noresume"))
			n++;
	}
	return n;
}

static void load_job(struct fixture *f)
{
	struct rig_err err = {0};

	assert_int_equal(ydoc_load(&f->doc, f->job, &err), 0);
}

static void test_qemu_smoke_job(void **state)
{
	struct fixture *f = *state;
	yaml_node_t *root, *meta, *deploy = NULL, *test = NULL, *images;
	const char *arg;

	assert_int_equal(render(f, "qemu", "smoke", "qemu"), 0);
	assert_non_null(strstr(f->out, f->job));
	load_job(f);
	root = ydoc_root(&f->doc);
	assert_string_equal(get_str(f, root, "device_type"), "qemu");
	meta = get(f, root, "metadata");
	assert_string_equal(get_str(f, meta, "rig.board"), "qemu");
	assert_string_equal(get_str(f, meta, "rig.plan"), "smoke");
	assert_string_equal(get_str(f, meta, "rig.night"), "2026-12-03");
	assert_non_null(strstr(get_str(f, meta, "rig.knob"), "freeze_filesystems=1"));
	assert_non_null(get_str(f, meta, "rig.kernel_version"));
	assert_non_null(get_str(f, meta, "rig.kernel_sha"));
	/* smoke: 3 suspends and a hibernation with resume, after one setup; one boot, no power cut */
	assert_int_equal(count_actions(f, "deploy", &deploy), 1);
	assert_int_equal(count_actions(f, "boot", NULL), 1);
	assert_int_equal(count_actions(f, "test", &test), 5);
	assert_int_equal(count_actions(f, "command", NULL), 0);
	images = get(f, deploy, "images");
	assert_string_equal(get_str(f, get(f, images, "kernel"), "url"), "http://lab.example/k/bzImage");
	assert_non_null(strstr(get_str(f, get(f, images, "ramdisk"), "url"), "file://"));
	arg = get_str(f, get(f, images, "kernel"), "image_arg");
	assert_non_null(strstr(arg, "no_console_suspend"));
	assert_non_null(strstr(arg, "loglevel=7"));
	assert_null(strstr(arg, "quiet"));
	assert_null(strstr(arg, "noresume"));
}

/* A plan's boot timeout reaches the job like every other (it used to be the board's alone). */
static void test_plan_timeouts_reach_the_job(void **state)
{
	struct fixture *f = *state;
	yaml_node_t *boot = NULL;
	char plan[160];
	FILE *p;

	snprintf(plan, sizeof(plan), "%s/slow-boot.yaml", f->dir);
	assert_non_null(p = fopen(plan, "w"));
	fputs("name: slow-boot\nworkloads: [journal]\ntimeouts: {boot: 600}\n"
	      "steps:\n  - suspend: {mode: deep, wake: rtc, seconds: 3}\n", p);
	fclose(p);
	assert_int_equal(render(f, "qemu", plan, "qemu"), 0);
	snprintf(f->job, sizeof(f->job), "%s/qemu-slow-boot.yaml", f->dir);
	load_job(f);
	assert_int_equal(count_actions(f, "boot", &boot), 1);
	assert_string_equal(get_str(f, get(f, boot, "timeout"), "minutes"), "12");   /* 600 s + 2 min */
	unlink(plan);
}

/* A plan that sleeps through systemd: the job's cycle asks rig-dut for the same systemctl sleep
 * rig run does; a hibernation through systemctl is refused (LAVA restores an image by an
 * in-place reboot, systemd's HibernateMode would power off) rather than rendered as sysfs. */
static void test_systemctl_sleep_in_a_job(void **state)
{
	struct fixture *f = *state;
	char plan[160];
	FILE *p;

	snprintf(plan, sizeof(plan), "%s/sys.yaml", f->dir);
	assert_non_null(p = fopen(plan, "w"));
	fputs("name: sys\nworkloads: [journal]\n"
	      "steps:\n  - suspend: {mode: deep, wake: rtc, seconds: 3, via: systemctl}\n", p);
	fclose(p);
	assert_int_equal(render(f, "qemu-debian", plan, "qemu-debian"), 0);
	snprintf(f->job, sizeof(f->job), "%s/qemu-debian-sys.yaml", f->dir);
	load_job(f);
	{
		char *text = NULL;
		struct rig_err err = {0};

		assert_int_equal(text_read_file(f->job, &text, &err), 0);
		assert_non_null(strstr(text, "VIA='suspend'"));
		free(text);
	}
	unlink(f->job);
	f->job[0] = '\0';
	assert_non_null(p = fopen(plan, "w"));
	fputs("name: sys\nworkloads: [journal]\nsteps:\n  - hibernate: {via: systemctl}\n", p);
	fclose(p);
	assert_int_equal(render(f, "qemu-debian", plan, "qemu-debian"), RIG_EXIT_USAGE);
	assert_non_null(strstr(f->errout, "through sysfs only"));
	unlink(plan);
}

/* A hibernation mode other than the default is refused: a LAVA job restores its image by an
 * in-place reboot, not by the path the plan's mode asks for (rig run does that). */
static void test_hibernation_mode_refused_in_a_job(void **state)
{
	struct fixture *f = *state;
	char plan[160];
	FILE *p;

	snprintf(plan, sizeof(plan), "%s/modes.yaml", f->dir);
	assert_non_null(p = fopen(plan, "w"));
	fputs("name: modes\nworkloads: [journal]\nsteps:\n  - hibernate: {mode: platform}\n", p);
	fclose(p);
	assert_int_equal(render(f, "qemu", plan, "qemu"), RIG_EXIT_USAGE);
	assert_non_null(strstr(f->errout,
			       "hibernate mode platform: a LAVA job hibernates in its own way"));
	unlink(plan);
}

static void test_nightly_power_cut_and_unique_names(void **state)
{
	struct fixture *f = *state;
	yaml_node_t *actions, *deploy = NULL;
	char names[64][64];
	int n = 0;

	assert_int_equal(render(f, "qemu", "nightly", "qemu"), 0);
	load_job(f);
	/* per cycle: two power cuts (knobs 1/1 and 1/0) and hibernate-without-resume each wait,
	 * boot again and verify; the noresume boot is followed by a normal deploy, which the last
	 * power cut of the cycle boots, so the next cycle's hibernation with resume needs no boot
	 * of its own */
	assert_int_equal(count_actions(f, "command", NULL), 3 * 10);
	assert_int_equal(count_actions(f, "boot", NULL), 1 + 3 * 10);
	assert_int_equal(count_actions(f, "deploy", &deploy), 1 + 2 * 10);
	assert_null(strstr(get_str(f, get(f, get(f, deploy, "images"), "kernel"), "image_arg"), "noresume"));
	assert_int_equal(noresume_deploys(f), 10);
	actions = get(f, ydoc_root(&f->doc), "actions");
	for (yaml_node_item_t *it = actions->data.sequence.items.start; it < actions->data.sequence.items.top; it++) {
		yaml_node_t *test = get(f, ydoc_node(&f->doc, *it), "test"), *defs;

		if (!test)
			continue;
		defs = get(f, test, "definitions");
		for (yaml_node_item_t *d = defs->data.sequence.items.start; d < defs->data.sequence.items.top; d++) {
			const char *name = get_str(f, ydoc_node(&f->doc, *d), "name");

			assert_non_null(name);
			for (int i = 0; i < n && i < 64; i++)
				assert_string_not_equal(names[i], name);
			if (n < 64)
				snprintf(names[n], sizeof(names[n]), "%s", name);
			n++;
		}
	}
	assert_true(n > 64);
}

static void test_real_board_boots_over_tftp(void **state)
{
	struct fixture *f = *state;
	yaml_node_t *boot = NULL, *context;

	assert_int_equal(render(f, "boards/examples/devboard-arm64.yaml", "smoke", "devboard-arm64"), 0);
	load_job(f);
	assert_int_equal(count_actions(f, "boot", &boot), 1);
	assert_string_equal(get_str(f, boot, "method"), "u-boot");
	context = get(f, ydoc_root(&f->doc), "context");
	/* the board's own console (ttyS2 at 1.5 Mbaud) is kept, not replaced by ttyS0 */
	assert_non_null(strstr(get_str(f, context, "extra_kernel_args"), "console=ttyS2,1500000"));
	assert_null(strstr(get_str(f, context, "extra_kernel_args"), "ttyS0"));
}

static void test_usage(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(render(f, "qemu", "no-such-plan", "qemu"), 2);
	assert_non_null(strstr(f->errout, "no-such-plan"));
	f->job[0] = '\0';
}

static void test_cmdline(void **state)
{
	struct rig_err err = {0};
	char *line = NULL;

	(void)state;
	assert_int_equal(lava_kernel_cmdline("quiet console=ttyS2,1500000 loglevel=4\n  resume=/dev/sda2 quiet",
					     1, 1, &line, &err), 0);
	assert_null(strstr(line, "quiet"));
	assert_non_null(strstr(line, "console=ttyS2,1500000"));
	assert_null(strstr(line, "ttyS0"));
	assert_non_null(strstr(line, "loglevel=4"));
	assert_non_null(strstr(line, "no_console_suspend"));
	assert_non_null(strstr(line, "rdinit=/bin/sh"));
	assert_non_null(strstr(line, " noresume"));
	assert_null(strchr(line, '\n'));
	free(line);
}

static void test_expand_unknown_variable(void **state)
{
	struct tmpl_var vars[] = {{"A", "1"}};
	struct text t = {0};
	struct rig_err err = {0};

	(void)state;
	assert_int_equal(text_expand(&t, "x.in", "a: @A@\nb: @B@\nmail: x@@y\n", vars, 1, &err), -1);
	assert_non_null(strstr(err.msg, "x.in:2:"));
	assert_non_null(strstr(err.msg, "@B@"));
	text_free(&t);
	assert_int_equal(text_expand(&t, "x.in", "a: @A@ mail: x@@y\n", vars, 1, &err), 0);
	assert_string_equal(t.s, "a: 1 mail: x@y\n");
	text_free(&t);
}

static void test_yaml_quote_round_trip(void **state)
{
	static const char hostile[] = "a\"b\\c\nd\te: #f {g} @h\x01 'i' \xc3\xa9";
	struct text t = {0};
	struct rig_err err = {0};
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;

	(void)state;
	assert_int_equal(text_puts(&t, "k: ", &err), 0);
	assert_int_equal(text_yaml_quote(&t, hostile, &err), 0);
	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_string(&parser, (const unsigned char *)t.s, t.len);
	assert_true(yaml_parser_load(&parser, &doc));
	root = yaml_document_get_root_node(&doc);
	assert_non_null(root);
	{
		yaml_node_t *v = yaml_document_get_node(&doc, root->data.mapping.pairs.start->value);

		assert_string_equal((const char *)v->data.scalar.value, hostile);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	text_free(&t);
}

static void test_indent(void **state)
{
	struct text t = {0};
	struct rig_err err = {0};

	(void)state;
	assert_int_equal(text_indent(&t, "a:\n\n  b: 1\nc", 4, &err), 0);
	assert_string_equal(t.s, "    a:\n\n      b: 1\n    c\n");
	text_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_qemu_smoke_job, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_timeouts_reach_the_job, setup, teardown),
		cmocka_unit_test_setup_teardown(test_systemctl_sleep_in_a_job, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hibernation_mode_refused_in_a_job, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nightly_power_cut_and_unique_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_board_boots_over_tftp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_usage, setup, teardown),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_expand_unknown_variable),
		cmocka_unit_test(test_yaml_quote_round_trip),
		cmocka_unit_test(test_indent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
