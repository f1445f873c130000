/* Verdicts shared by every step: classification against known issues, clean resume. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ctx.h"

enum results_knob knob_of(int value)
{
	if (value == 0)
		return RESULTS_KNOB_OFF;
	if (value > 0)
		return RESULTS_KNOB_ON;
	return RESULTS_KNOB_UNKNOWN;
}

static struct engine_verdict_count *count_for(struct engine_totals *t, const char *name)
{
	for (unsigned i = 0; i < t->n_verdict_names; i++)
		if (strcmp(t->by_verdict[i].name, name) == 0)
			return &t->by_verdict[i];
	if (t->n_verdict_names == ENGINE_MAX_VERDICT_NAMES)
		return NULL;
	snprintf(t->by_verdict[t->n_verdict_names].name, sizeof(t->by_verdict[0].name), "%s", name);
	return &t->by_verdict[t->n_verdict_names++];
}

static void count(struct engine_totals *t, const char *name, enum results_verdict_result result,
		  bool known)
{
	struct engine_verdict_count *c = count_for(t, name);

	if (result == RESULTS_VERDICT_PASS) {
		t->pass++;
		if (c)
			c->pass++;
	} else if (result == RESULTS_VERDICT_FAIL && known) {
		t->known++;
		if (c)
			c->known++;
	} else if (result == RESULTS_VERDICT_FAIL || result == RESULTS_VERDICT_ERROR) {
		t->fail++;
		if (c)
			c->fail++;
	} else {
		t->skip++;
		if (c)
			c->skip++;
	}
}

int verdict_add(struct engine_ctx *ctx, struct results_cycle *cyc, const char *name,
		const char *filesystem, enum results_verdict_result result, const char *detail,
		const char *const *messages, size_t n_messages, struct rig_err *err)
{
	const char *known_id = NULL;

	if (result == RESULTS_VERDICT_FAIL && ctx->opts->known &&
	    known_classify(ctx->opts->known, name, filesystem, ctx->st.kernel_version,
			   ctx->st.knob_freeze_filesystems, messages, n_messages, &known_id) != 1)
		known_id = NULL;
	count(ctx->totals, name, result, known_id != NULL);
	if (result != RESULTS_VERDICT_PASS)
		session_say(ctx->s, "  verdict %s%s%s: %s%s%s%s: %s", name, filesystem ? " " : "",
			    filesystem ? filesystem : "", results_verdict_result_name(result),
			    known_id ? " (known: " : "", known_id ? known_id : "", known_id ? ")" : "",
			    detail ? detail : "");
	return results_cycle_add_verdict(cyc, name, filesystem, result, known_id, detail, err);
}

static bool is_fault(const struct kevent *ev)
{
	return kevent_is_failure(ev->kind) || ev->kind == KEV_FREEZE_FAILED ||
	       ev->kind == KEV_FREEZE_STUCK_TASK || ev->kind == KEV_SLEEP_FAILED ||
	       ev->kind == KEV_DEVICE_PM_FAILED || ev->kind == KEV_IMAGE_SAVE_FAILED ||
	       ev->kind == KEV_IMAGE_LOAD_FAILED || ev->kind == KEV_HIBERNATE_RESUME_FAILED;
}

int verdict_clean_resume(struct engine_ctx *ctx, struct results_cycle *cyc,
			 const struct session_event *ev, size_t n, struct rig_err *err)
{
	const char **messages = calloc(n ? n : 1, sizeof(*messages));
	char detail[1024] = "";
	size_t n_faults = 0, used = 0;
	int rc;

	if (!messages)
		return rig_err_set(err, RIG_EXIT_INFRA, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (!is_fault(&ev[i].ev))
			continue;
		messages[n_faults++] = ev[i].text;
		if (used < sizeof(detail) - 1)
			used += (size_t)snprintf(detail + used, sizeof(detail) - used, "%s%s",
						 n_faults > 1 ? " | " : "", ev[i].text);
	}
	if (n_faults == 0)
		rc = verdict_add(ctx, cyc, "clean-resume", NULL, RESULTS_VERDICT_PASS,
				 "no warning, oops, lockdep report, hung task or freeze failure", NULL, 0,
				 err);
	else
		rc = verdict_add(ctx, cyc, "clean-resume", NULL, RESULTS_VERDICT_FAIL, detail,
				 messages, n_faults, err);
	free(messages);
	return rc;
}

static bool worth_storing(enum kevent_kind kind)
{
	switch (kind) {
	case KEV_AGENT_BEGIN:
	case KEV_AGENT_END:
	case KEV_IMAGE_SAVE_PROGRESS:
	case KEV_IMAGE_LOAD_PROGRESS:
		return false;
	default:
		return true;
	}
}

int cycle_store_events(struct results_cycle *cyc, const struct session_event *ev, size_t n,
		       struct rig_err *err)
{
	for (size_t i = 0; i < n; i++) {
		if (!worth_storing(ev[i].ev.kind))
			continue;
		if (results_cycle_add_event(cyc, kevent_kind_name(ev[i].ev.kind),
					    ev[i].ev.has_ktime ? ev[i].ev.ktime : -1.0, ev[i].host_ts,
					    ev[i].text, err) < 0)
			return -1;
	}
	return 0;
}
