#include "results/cycle.h"
#include "results/timeline.h"
#include "util/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double results_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* strdup that keeps NULL as NULL and reports failure through *ok. */
static char *copy(const char *s, int *ok)
{
	char *c;

	if (!s)
		return NULL;
	c = strdup(s);
	if (!c)
		*ok = 0;
	return c;
}

static int no_memory(struct rig_err *err, const char *what)
{
	return rig_err_set(err, RIG_EXIT_INFRA, "results: out of memory adding %s", what);
}

struct results_cycle *results_cycle_begin(int64_t run_id, const struct results_cycle_info *info,
					  struct rig_err *err)
{
	struct results_cycle *c = calloc(1, sizeof(*c));
	int ok = 1;

	if (!info->step_kind) {
		free(c);
		rig_err_set(err, RIG_EXIT_USAGE, "results: a cycle needs a step kind");
		return NULL;
	}
	if (!c) {
		no_memory(err, "a cycle");
		return NULL;
	}
	c->run_id = run_id;
	c->idx = info->idx;
	c->step_kind = copy(info->step_kind, &ok);
	c->step_desc = copy(info->step_desc, &ok);
	c->kernel_version = copy(info->kernel_version, &ok);
	c->kernel_build_id = copy(info->kernel_build_id && *info->kernel_build_id ?
				  info->kernel_build_id : NULL, &ok);
	c->status = RESULTS_CYCLE_ABORTED;
	c->started_at = info->started_at > 0 ? info->started_at : results_now();
	c->ended_at = NAN;
	c->knob_freeze_filesystems = info->knob_freeze_filesystems;
	c->knob_sync_on_suspend = info->knob_sync_on_suspend;
	c->console_from = info->console_from;
	c->console_to = -1;
	if (!ok) {
		results_cycle_free(c);
		no_memory(err, "a cycle");
		return NULL;
	}
	return c;
}

int results_cycle_add_verdict(struct results_cycle *cycle, const char *name, const char *filesystem,
			      enum results_verdict_result result, const char *known_issue,
			      const char *detail, struct rig_err *err)
{
	struct results_verdict v = { .result = result };
	int ok = 1;

	if (!name)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a verdict needs a name");
	if (array_grow((void **)&cycle->verdicts, &cycle->cap_verdicts, cycle->n_verdicts, sizeof(v)))
		return no_memory(err, "a verdict");
	v.name = copy(name, &ok);
	v.filesystem = copy(filesystem, &ok);
	v.known_issue = copy(known_issue, &ok);
	v.detail = copy(detail, &ok);
	if (!ok) {
		free(v.name), free(v.filesystem), free(v.known_issue), free(v.detail);
		return no_memory(err, "a verdict");
	}
	cycle->verdicts[cycle->n_verdicts++] = v;
	return 0;
}

int results_cycle_add_measurement(struct results_cycle *cycle, const char *name,
				  const char *filesystem, double value, const char *unit,
				  struct rig_err *err)
{
	struct results_measurement m = { .value = value };
	int ok = 1;

	if (!name)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a measurement needs a name");
	if (isnan(value))
		return rig_err_set(err, RIG_EXIT_USAGE, "results: measurement %s has no value", name);
	if (array_grow((void **)&cycle->measurements, &cycle->cap_measurements,
			cycle->n_measurements, sizeof(m)))
		return no_memory(err, "a measurement");
	m.name = copy(name, &ok);
	m.filesystem = copy(filesystem, &ok);
	m.unit = copy(unit, &ok);
	if (!ok) {
		free(m.name), free(m.filesystem), free(m.unit);
		return no_memory(err, "a measurement");
	}
	cycle->measurements[cycle->n_measurements++] = m;
	return 0;
}

int results_cycle_add_phase(struct results_cycle *cycle, const char *name, double seconds,
			    struct rig_err *err)
{
	struct results_phase ph = { .seconds = seconds };
	int ok = 1;

	if (!name)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a phase needs a name");
	if (seconds < 0)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: phase %s: %g s", name, seconds);
	if (array_grow((void **)&cycle->phases, &cycle->cap_phases, cycle->n_phases, sizeof(ph)))
		return no_memory(err, "a phase");
	ph.name = copy(name, &ok);
	if (!ok)
		return no_memory(err, "a phase");
	cycle->phases[cycle->n_phases++] = ph;
	return 0;
}

int results_cycle_add_event(struct results_cycle *cycle, const char *kind, double kernel_ts,
			    double host_ts, const char *text, struct rig_err *err)
{
	struct results_event e = { .kernel_ts = kernel_ts, .host_ts = host_ts };
	int ok = 1;

	if (!kind)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: an event needs a kind");
	if (array_grow((void **)&cycle->events, &cycle->cap_events, cycle->n_events, sizeof(e)))
		return no_memory(err, "an event");
	e.kind = copy(kind, &ok);
	e.text = copy(text, &ok);
	if (!ok) {
		free(e.kind), free(e.text);
		return no_memory(err, "an event");
	}
	cycle->events[cycle->n_events++] = e;
	return 0;
}

static void wake_free(struct results_wake *w)
{
	if (!w)
		return;
	free((char *)w->wake), free((char *)w->irq_name), free((char *)w->sources);
	free(w);
}

int results_cycle_set_wake(struct results_cycle *cycle, const struct results_wake *wake,
			   struct rig_err *err)
{
	struct results_wake *w;
	int ok = 1;

	if (!wake->wake)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: a wake needs its source");
	if (!(w = malloc(sizeof(*w))))
		return no_memory(err, "a wake");
	*w = *wake;
	w->wake = copy(wake->wake, &ok);
	w->irq_name = copy(wake->irq_name, &ok);
	w->sources = copy(wake->sources, &ok);
	if (!ok) {
		wake_free(w);
		return no_memory(err, "a wake");
	}
	wake_free(cycle->wake);
	cycle->wake = w;
	return 0;
}

void results_cycle_set_hibernation(struct results_cycle *cycle, const struct results_hibernation *h)
{
	cycle->hibernation = *h;
	cycle->has_hibernation = true;
}

int results_cycle_add_artefact(struct results_cycle *cycle, const char *kind, const char *path,
			       struct rig_err *err)
{
	struct results_artefact a = { 0 };
	int ok = 1;

	if (!kind || !path)
		return rig_err_set(err, RIG_EXIT_USAGE, "results: an artefact needs a kind and a path");
	if (array_grow((void **)&cycle->artefacts, &cycle->cap_artefacts, cycle->n_artefacts, sizeof(a)))
		return no_memory(err, "an artefact");
	a.kind = copy(kind, &ok);
	a.path = copy(path, &ok);
	if (!ok) {
		free(a.kind), free(a.path);
		return no_memory(err, "an artefact");
	}
	cycle->artefacts[cycle->n_artefacts++] = a;
	return 0;
}

int results_cycle_set_hang(struct results_cycle *cycle, const char *phase, const char *console_tail,
			   struct rig_err *err)
{
	int ok = 1;
	char *p = copy(phase, &ok);
	char *t = copy(console_tail, &ok);

	if (!ok) {
		free(p), free(t);
		return no_memory(err, "a hang");
	}
	free(cycle->hang_phase);
	free(cycle->console_tail);
	cycle->hang_phase = p;
	cycle->console_tail = t;
	cycle->status = RESULTS_CYCLE_HANG;
	return 0;
}

int results_cycle_set_host_cpu(struct results_cycle *cycle, const struct results_host_cpu *h,
			       struct rig_err *err)
{
	int ok = 1;
	char *detail = copy(h->detail, &ok);

	if (!ok)
		return no_memory(err, "the host's CPU accounting");
	free(cycle->host_cpu.detail);
	cycle->host_cpu = *h;
	cycle->host_cpu.detail = detail;
	return 0;
}

int results_cycle_set_verdict(struct results_cycle *cycle, size_t i,
			      enum results_verdict_result result, const char *detail,
			      struct rig_err *err)
{
	int ok = 1;
	char *d = copy(detail, &ok);

	if (i >= cycle->n_verdicts) {
		free(d);
		return rig_err_set(err, RIG_EXIT_INFRA, "results: no verdict %zu in the cycle", i);
	}
	if (!ok)
		return no_memory(err, "a verdict");
	free(cycle->verdicts[i].detail);
	cycle->verdicts[i].detail = d;
	cycle->verdicts[i].result = result;
	return 0;
}

void results_cycle_end(struct results_cycle *cycle, enum results_cycle_status status,
		       double ended_at, int64_t console_to)
{
	cycle->status = status;
	cycle->ended_at = ended_at > 0 ? ended_at : results_now();
	cycle->console_to = console_to;
}

static void free_items(struct results_cycle *c)
{
	for (size_t i = 0; i < c->n_verdicts; i++) {
		free(c->verdicts[i].name), free(c->verdicts[i].filesystem);
		free(c->verdicts[i].known_issue), free(c->verdicts[i].detail);
	}
	for (size_t i = 0; i < c->n_measurements; i++) {
		free(c->measurements[i].name), free(c->measurements[i].filesystem);
		free(c->measurements[i].unit);
	}
	for (size_t i = 0; i < c->n_events; i++)
		free(c->events[i].kind), free(c->events[i].text);
	for (size_t i = 0; i < c->n_artefacts; i++)
		free(c->artefacts[i].kind), free(c->artefacts[i].path);
}

void results_cycle_free(struct results_cycle *cycle)
{
	if (!cycle)
		return;
	free_items(cycle);
	free(cycle->verdicts);
	free(cycle->measurements);
	for (size_t i = 0; i < cycle->n_phases; i++)
		free(cycle->phases[i].name);
	free(cycle->phases);
	results_timeline_free(cycle);
	wake_free(cycle->wake);
	free(cycle->events);
	free(cycle->artefacts);
	free(cycle->step_kind);
	free(cycle->step_desc);
	free(cycle->hang_phase);
	free(cycle->kernel_version);
	free(cycle->kernel_build_id);
	free(cycle->console_tail);
	free(cycle->host_cpu.detail);
	free(cycle);
}

const char *results_cycle_status_name(enum results_cycle_status status)
{
	static const char *const names[] = {
		[RESULTS_CYCLE_PASS] = "pass", [RESULTS_CYCLE_FAIL] = "fail",
		[RESULTS_CYCLE_HANG] = "hang", [RESULTS_CYCLE_INFRA] = "infra",
		[RESULTS_CYCLE_ABORTED] = "aborted",
	};

	return (unsigned)status < sizeof(names) / sizeof(names[0]) ? names[status] : "?";
}

const char *results_verdict_result_name(enum results_verdict_result result)
{
	static const char *const names[] = {
		[RESULTS_VERDICT_PASS] = "pass", [RESULTS_VERDICT_FAIL] = "fail",
		[RESULTS_VERDICT_SKIP] = "skip", [RESULTS_VERDICT_ERROR] = "error",
	};

	return (unsigned)result < sizeof(names) / sizeof(names[0]) ? names[result] : "?";
}
