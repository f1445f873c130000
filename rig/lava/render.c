#include "lava/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lava/text.h"
#include "util/shell_quote.h"

/* set by jobs/image/rig-lava-env.sh; a real board's LAVA image must use it too */
#define PROMPT "rig-lava# "
#define SETUP_TEST "rig-setup.yaml"
#define CYCLE_TEST "rig-cycle.yaml"
#define AWAY_TEST "rig-sleep-away.yaml"
#define VERIFY_TEST "rig-verify.yaml"

struct renderer {
	const struct board *board;
	const struct plan *plan;
	const struct lava_render_opts *opts;
	int qemu;                  /* LAVA's qemu device type, else a tftp-booted real board */
	struct text actions;
	int cycle;                 /* index of the next cycle, encoded in the suite names */
	int setups;                /* rig-setup-NNN: LAVA wants every definition name unique */
	int minutes;               /* the job timeout, summed from the actions */
	const char *fsfreeze;      /* filesystem a plan's fsfreeze step hands to the next suspend */
	int deployed_noresume;     /* the last deploy's command line has noresume */
	int booted_noresume;       /* and the running kernel was booted with it */
	struct plan_knob knob;
	struct board_timeouts t;   /* the plan's overrides over the board's (plan_timeouts) */
};

struct param {
	const char *name;
	const char *value;
};

static int emit(struct renderer *r, const char *name, const struct tmpl_var *vars, size_t n,
		struct rig_err *err)
{
	char path[4096];
	char *tmpl;
	int rc;

	snprintf(path, sizeof(path), "%s/templates/%s", r->opts->jobs_dir, name);
	if (text_read_file(path, &tmpl, err))
		return -1;
	rc = text_expand(&r->actions, path, tmpl, vars, n, err);
	free(tmpl);
	return rc;
}

static char *quoted(const char *s, struct rig_err *err)
{
	struct text t = {0};

	if (text_yaml_quote(&t, s ? s : "", err))
		return NULL;
	return t.s;
}

static unsigned minutes_of(unsigned seconds)
{
	return seconds / 60 + 2;
}

static int emit_deploy(struct renderer *r, int noresume, struct rig_err *err)
{
	char *cmdline = NULL, *karg = NULL, *kurl = NULL, *iurl = NULL, *ktype = NULL, *eurl = NULL;
	struct text arg = {0};
	int rc = -1;

	if (lava_kernel_cmdline(r->board->boot.cmdline, noresume, r->qemu, &cmdline, err))
		return -1;
	r->deployed_noresume = noresume;
	if (text_printf(&arg, err, "-kernel {kernel} -append \"%s\"", cmdline))
		goto out;
	karg = quoted(arg.s, err);
	kurl = quoted(r->opts->kernel_url, err);
	iurl = quoted(r->opts->initrd_url, err);
	eurl = quoted(r->opts->env_url, err);
	/* u-boot needs to know it boots an arm64 Image (booti); iPXE finds out itself */
	ktype = strdup(r->board->arch && !strcmp(r->board->arch, "aarch64") ? "\n      type: image" : "");
	if (!ktype)
		rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	if (!karg || !kurl || !iurl || !ktype || !eurl)
		goto out;
	{
		struct tmpl_var vars[] = {
			{"KERNEL_URL", kurl}, {"KERNEL_ARG", karg}, {"INITRD_URL", iurl},
			{"KERNEL_TYPE", ktype}, {"ENV_URL", eurl},
		};
		rc = emit(r, r->qemu ? "deploy-qemu.yaml.in" : "deploy-tftp.yaml.in", vars, 5, err);
	}
	r->minutes += 5;
out:
	free(cmdline);
	free(karg);
	free(kurl);
	free(iurl);
	free(eurl);
	free(ktype);
	text_free(&arg);
	return rc;
}

static int emit_boot(struct renderer *r, struct rig_err *err)
{
	unsigned boot_min = minutes_of(r->t.boot);
	const char *method = r->board->arch && !strcmp(r->board->arch, "aarch64") ? "u-boot" : "ipxe";
	char min[16], *prompt = quoted(PROMPT, err), *qmethod = quoted(method, err);
	int rc = -1;

	snprintf(min, sizeof(min), "%u", boot_min);
	r->booted_noresume = r->deployed_noresume;
	if (prompt && qmethod) {
		struct tmpl_var vars[] = {
			{"BOOT_MINUTES", min}, {"PROMPT", prompt}, {"BOOT_METHOD", qmethod},
		};
		rc = emit(r, r->qemu ? "boot-qemu.yaml.in" : "boot-tftp.yaml.in", vars, 3, err);
	}
	r->minutes += (int)boot_min;
	free(prompt);
	free(qmethod);
	return rc;
}

static int emit_command(struct renderer *r, const char *name, unsigned minutes, struct rig_err *err)
{
	char min[16], *qname = quoted(name, err);
	int rc = -1;

	snprintf(min, sizeof(min), "%u", minutes);
	if (qname) {
		struct tmpl_var vars[] = {{"COMMAND", qname}, {"COMMAND_MINUTES", min}};

		rc = emit(r, "command.yaml.in", vars, 2, err);
	}
	r->minutes += (int)minutes;
	free(qname);
	return rc;
}

/* NAME='value' (shell-quoted: the value is the board's or the plan's text). */
static int shell_assignment(struct text *t, const struct param *p, struct rig_err *err)
{
	char *word = shell_quoted(p->value);
	int rc;

	if (!word)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	rc = text_printf(t, err, "%s=%s", p->name, word);
	free(word);
	return rc;
}

/* The values as the first run steps, one shell assignment each, YAML-quoted. */
static int params_steps(struct text *t, const struct param *params, size_t n, struct rig_err *err)
{
	if (text_puts(t, "", err))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct text step = {0};
		int rc = shell_assignment(&step, &params[i], err) || text_puts(t, "    - ", err) ||
			 text_yaml_quote(t, step.s, err) || text_puts(t, "\n", err);

		text_free(&step);
		if (rc)
			return -1;
	}
	return 0;
}

/* body with steps inserted at the head of its run: steps: list. */
static int insert_steps(const char *body, const char *steps, struct text *t, const char *file,
			struct rig_err *err)
{
	static const char anchor[] = "\nrun:\n  steps:\n";
	const char *at = strstr(body, anchor);

	if (!at)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: no \"run:\" / \"  steps:\" to give the "
				   "parameters to", file);
	at += strlen(anchor);
	return text_append(t, body, (size_t)(at - body), err) || text_puts(t, steps, err) ||
	       text_puts(t, at, err) ? -1 : 0;
}

/* The definition without its own top-level params: block. lava-server 2023.01 refuses any key
 * but metadata, install, run and parse in an inline definition ("extra keys not allowed @
 * ...['repository']['params']"; lava-run alone takes it), and lava-schema refuses `parameters`
 * beside an inline one: the action's values become the first run steps instead. */
static int strip_params(const char *body, struct text *t, struct rig_err *err)
{
	int in_params = 0;

	if (text_puts(t, "", err))
		return -1;
	while (*body) {
		const char *nl = strchr(body, '\n');
		size_t n = nl ? (size_t)(nl - body) + 1 : strlen(body);

		if (!strncmp(body, "params:", 7))
			in_params = 1;
		else if (in_params && n > 1 && body[0] != ' ' && body[0] != '#')
			in_params = 0;
		if (!in_params && text_append(t, body, n, err))
			return -1;
		body += n;
	}
	return 0;
}

/* A test action running one definition of jobs/test-definitions/ inline, as suite `suite`. */
static int emit_test(struct renderer *r, const char *suite, const char *file,
		     const struct param *params, size_t n, unsigned minutes, struct rig_err *err)
{
	struct text ptext = {0}, def = {0}, stripped = {0}, withsteps = {0};
	char path[4096], min[16], *body = NULL, *qsuite = NULL, *qpath = NULL;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/test-definitions/%s", r->opts->jobs_dir, file);
	snprintf(min, sizeof(min), "%u", minutes);
	if (text_read_file(path, &body, err) || strip_params(body, &stripped, err) ||
	    params_steps(&ptext, params, n, err) ||
	    text_puts(&withsteps, "", err) ||
	    insert_steps(stripped.s, ptext.s, &withsteps, path, err) ||
	    text_indent(&def, withsteps.s, 8, err))
		goto out;
	if (def.len && def.s[def.len - 1] == '\n')
		def.s[--def.len] = '\0';
	snprintf(path, sizeof(path), "inline/%s", file);
	qsuite = quoted(suite, err);
	qpath = quoted(path, err);
	if (!qsuite || !qpath)
		goto out;
	{
		struct tmpl_var vars[] = {
			{"TEST_MINUTES", min}, {"SUITE", qsuite}, {"PATH", qpath},
			{"DEFINITION", def.s},
		};
		rc = emit(r, "test.yaml.in", vars, 4, err);
	}
	r->minutes += (int)minutes;
out:
	free(body);
	free(qsuite);
	free(qpath);
	text_free(&ptext);
	text_free(&stripped);
	text_free(&withsteps);
	text_free(&def);
	return rc;
}

static const char *knob_value(int v)
{
	return v < 0 ? "" : v ? "1" : "0";
}

static int emit_setup(struct renderer *r, const char *workloads, struct rig_err *err)
{
	struct param params[] = {
		{"FREEZE_FILESYSTEMS", knob_value(r->knob.freeze_filesystems)},
		{"SYNC_ON_SUSPEND", knob_value(r->knob.sync_on_suspend)},
		{"WORKLOADS", workloads},
		{"S_ID_OFFSET", r->opts->s_id_offset ? r->opts->s_id_offset : ""},
		{"RIG_BOARD", r->board->name}, {"RIG_PLAN", r->plan->name},
	};

	char suite[32];

	snprintf(suite, sizeof(suite), "rig-setup-%03d", r->setups++);
	return emit_test(r, suite, SETUP_TEST, params, 6, 5, err);
}

static int plan_workloads(const struct plan *plan, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan->n_workloads; i++) {
		int n = snprintf(buf + used, size - used, "%s%s", i ? " " : "", plan->workloads[i]);

		if (n < 0 || (size_t)n >= size - used)
			return -1;
		used += (size_t)n;
	}
	if (!plan->n_workloads)
		snprintf(buf, size, "none");
	return 0;
}

static int emit_plan_setup(struct renderer *r, struct rig_err *err)
{
	char workloads[256];

	if (plan_workloads(r->plan, workloads, sizeof(workloads)))
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: workload list too long", r->plan->path);
	return emit_setup(r, workloads, err);
}

static void suite_name(char *buf, size_t size, int cycle, const char *kind)
{
	snprintf(buf, size, "cycle-%03d-%s", cycle, kind);
}

static int emit_suspend(struct renderer *r, const struct step *s, struct rig_err *err)
{
	const struct step_suspend *su = &s->u.suspend;
	const char *verb = sleep_via_verb(su->via, false);
	/* as rig run: hybrid-sleep writes a hibernation image before it suspends */
	unsigned limit = su->seconds + r->t.suspend + r->t.resume +
			 (su->via == VIA_HYBRID_SLEEP ? r->t.hibernate : 0);
	char suite[64], secs[16], timeout[16];
	struct param params[] = {
		{"MODE", sleep_mode_name(su->mode)}, {"SLEEP_SECONDS", secs}, {"PM_TEST", ""},
		{"FSFREEZE", r->fsfreeze ? r->fsfreeze : ""}, {"TIMEOUT", timeout},
		{"VIA", verb ? verb : ""},
	};

	suite_name(suite, sizeof(suite), r->cycle++, "suspend");
	snprintf(secs, sizeof(secs), "%u", su->seconds);
	snprintf(timeout, sizeof(timeout), "%u", limit);
	r->fsfreeze = NULL;
	return emit_test(r, suite, CYCLE_TEST, params, 6, minutes_of(limit) + 2, err);
}

static int emit_pm_test(struct renderer *r, const struct step *s, struct rig_err *err)
{
	char suite[64];
	struct param params[] = {
		{"MODE", sleep_mode_name(s->u.pm_test.mode)}, {"SLEEP_SECONDS", "0"},
		{"PM_TEST", pm_test_level_name(s->u.pm_test.level)}, {"FSFREEZE", ""}, {"TIMEOUT", "120"},
		{"VIA", ""},
	};

	suite_name(suite, sizeof(suite), r->cycle++, "pm_test");
	return emit_test(r, suite, CYCLE_TEST, params, 6, 5, err);
}

/* The board goes away in the background; the next boot action is the power cut. */
static int emit_forced_failed_resume(struct renderer *r, const char *kind, const char *action,
				     const char *mode, const char *wait_command, int noresume,
				     struct rig_err *err)
{
	char suite[64], verify[64];
	struct param away[] = {
		{"ACTION", action}, {"RESUME", "no"}, {"MODE", mode}, {"TIMEOUT", "300"},
	};
	struct param none[] = {{"RIG_CYCLE", kind}};

	suite_name(suite, sizeof(suite), r->cycle, kind);
	suite_name(verify, sizeof(verify), r->cycle++, "verify");
	if (emit_test(r, suite, AWAY_TEST, away, 4, 5, err) ||
	    emit_command(r, wait_command, noresume ? 6 : 2, err))
		return -1;
	if (noresume && emit_deploy(r, 1, err))
		return -1;
	if (emit_boot(r, err) || emit_test(r, verify, VERIFY_TEST, none, 1, 15, err))
		return -1;
	/* the next boot restores images again (an in-place reboot keeps noresume: see hibernate) */
	if (noresume && emit_deploy(r, 0, err))
		return -1;
	return emit_plan_setup(r, err);
}

static int emit_hibernate(struct renderer *r, const struct step *s, struct rig_err *err)
{
	unsigned limit = r->t.hibernate + r->t.restore;
	char suite[64], timeout[16];
	struct param params[] = {
		{"ACTION", "hibernate"}, {"RESUME", "yes"}, {"MODE", "deep"}, {"TIMEOUT", timeout},
	};

	/* LAVA restores an image by an in-place reboot (/sys/power/disk = reboot); systemd's
	 * hibernate writes its own HibernateMode: not rendered rather than rendered as sysfs. */
	if (s->u.hibernate.via != VIA_SYSFS)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: hibernate via %s: a LAVA job hibernates "
				   "through sysfs only", r->plan->path, sleep_via_name(s->u.hibernate.via));
	/* the job's mode is its own (reboot, restored in place); another mode is not rendered as
	 * that: the hibernate-mode verdict would judge a path the plan did not ask for */
	if (s->u.hibernate.mode != HIB_MODE_SHUTDOWN)
		return rig_err_set(err, RIG_EXIT_USAGE, "%s: hibernate mode %s: a LAVA job hibernates "
				   "in its own way (an in-place reboot); run it with rig run",
				   r->plan->path, hibernate_mode_name(s->u.hibernate.mode));
	if (!s->u.hibernate.resume)
		return emit_forced_failed_resume(r, "hibernate", "hibernate", "deep", "rig_wait_poweroff",
						 1, err);
	/* QEMU's in-place reboot keeps the command line: a noresume kernel would never restore */
	if (r->booted_noresume && (emit_boot(r, err) || emit_plan_setup(r, err)))
		return -1;
	suite_name(suite, sizeof(suite), r->cycle++, "hibernate");
	snprintf(timeout, sizeof(timeout), "%u", limit);
	return emit_test(r, suite, AWAY_TEST, params, 4, minutes_of(limit) + 2, err);
}

static int emit_step(struct renderer *r, const struct step *s, struct rig_err *err)
{
	switch (s->kind) {
	case STEP_SUSPEND:
		return emit_suspend(r, s, err);
	case STEP_HIBERNATE:
		return emit_hibernate(r, s, err);
	case STEP_POWER_CUT:
		return emit_forced_failed_resume(r, "power-cut", "suspend",
						 sleep_mode_name(s->u.power_cut.mode),
						 "rig_wait_suspended", 0, err);
	case STEP_PM_TEST:
		return emit_pm_test(r, s, err);
	case STEP_KNOB:
		if (s->u.knob.freeze_filesystems >= 0)
			r->knob.freeze_filesystems = s->u.knob.freeze_filesystems;
		if (s->u.knob.sync_on_suspend >= 0)
			r->knob.sync_on_suspend = s->u.knob.sync_on_suspend;
		return emit_setup(r, "none", err);
	case STEP_FSFREEZE:
		r->fsfreeze = s->u.fsfreeze.filesystem;
		return 0;
	}
	return rig_err_set(err, RIG_EXIT_USAGE, "%s:%u: step kind %d has no LAVA form", r->plan->path,
			   s->line, (int)s->kind);
}

static int emit_actions(struct renderer *r, struct rig_err *err)
{
	if (emit_deploy(r, 0, err) || emit_boot(r, err) || emit_plan_setup(r, err))
		return -1;
	for (unsigned c = 0; c < (r->plan->cycles ? r->plan->cycles : 1); c++)
		for (size_t i = 0; i < r->plan->n_steps; i++)
			if (emit_step(r, &r->plan->steps[i], err))
				return -1;
	if (r->actions.len && r->actions.s[r->actions.len - 1] == '\n')
		r->actions.s[--r->actions.len] = '\0';
	return 0;
}

static int context_text(const struct renderer *r, struct text *t, struct rig_err *err)
{
	char *cmdline = NULL;
	int rc;

	if (r->qemu)
		return text_puts(t, "  arch: x86_64\n  no_kvm: true", err);
	if (lava_kernel_cmdline(r->board->boot.cmdline, 0, 0, &cmdline, err))
		return -1;
	rc = text_puts(t, "  extra_kernel_args: ", err) || text_yaml_quote(t, cmdline, err) ? -1 : 0;
	free(cmdline);
	return rc;
}

static int knob_text(const struct plan_knob *k, char *buf, size_t size)
{
	return snprintf(buf, size, "freeze_filesystems=%s sync_on_suspend=%s",
			k->freeze_filesystems < 0 ? "kernel" : knob_value(k->freeze_filesystems),
			k->sync_on_suspend < 0 ? "kernel" : knob_value(k->sync_on_suspend));
}

static int render_header(struct renderer *r, struct text *job, struct rig_err *err)
{
	char minutes[16], knob[96], name[512], path[4096], *tmpl = NULL;
	const char *values[7];
	char *q[7] = {0};
	struct text context = {0};
	int rc = -1;

	knob_text(&r->plan->knob, knob, sizeof(knob));
	snprintf(name, sizeof(name), "rig %s %s %s", r->board->name, r->plan->name, r->opts->night);
	values[0] = r->opts->job_name ? r->opts->job_name : name;
	values[1] = r->board->name;
	values[2] = r->plan->name;
	values[3] = r->opts->night;
	values[4] = knob;
	values[5] = r->opts->kernel_version;
	values[6] = r->opts->kernel_sha;
	for (int i = 0; i < 7; i++)
		if (!(q[i] = quoted(values[i], err)))
			goto out;
	snprintf(minutes, sizeof(minutes), "%d", r->minutes + 10);
	snprintf(path, sizeof(path), "%s/templates/job.yaml.in", r->opts->jobs_dir);
	if (context_text(r, &context, err) || text_read_file(path, &tmpl, err))
		goto out;
	{
		struct tmpl_var vars[] = {
			{"DEVICE_TYPE", r->qemu ? "qemu" : r->board->arch && !strcmp(r->board->arch, "aarch64") ?
				"rk3399-rock-pi-4b" : "x86"},
			{"JOB_NAME", q[0]}, {"BOARD", q[1]}, {"PLAN", q[2]}, {"NIGHT", q[3]}, {"KNOB", q[4]},
			{"KERNEL_VERSION", q[5]}, {"KERNEL_SHA", q[6]}, {"JOB_MINUTES", minutes},
			{"CONTEXT", context.s}, {"ACTIONS", r->actions.s},
		};
		rc = text_expand(job, path, tmpl, vars, sizeof(vars) / sizeof(vars[0]), err);
	}
out:
	for (int i = 0; i < 7; i++)
		free(q[i]);
	free(tmpl);
	text_free(&context);
	return rc;
}

int lava_render_job(const struct board *board, const struct plan *plan,
		    const struct lava_render_opts *opts, char **yaml, struct rig_err *err)
{
	struct renderer r = {
		.board = board, .plan = plan, .opts = opts, .knob = plan->knob,
		.qemu = board->power.backend && !strcmp(board->power.backend, "qemu"),
	};
	struct text job = {0};
	int rc;

	plan_timeouts(plan, board, &r.t);
	rc = emit_actions(&r, err);
	if (!rc)
		rc = render_header(&r, &job, err);
	text_free(&r.actions);
	if (rc) {
		text_free(&job);
		return -1;
	}
	*yaml = job.s;
	return 0;
}
