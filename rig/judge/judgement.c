/* A cycle's verdicts and measurements as the judge hands them out; known issues applied. */
#include "judge/judge.h"

#include <stdlib.h>
#include <string.h>

#include "judge/known.h"
#include "util/array.h"

static char *copy(const char *s, bool *failed)
{
	char *c = s ? strdup(s) : NULL;

	if (s && !c)
		*failed = true;
	return c;
}

void judgement_free(struct judgement *j)
{
	for (size_t i = 0; i < j->n_verdicts; i++) {
		free(j->verdicts[i].name);
		free(j->verdicts[i].filesystem);
		free(j->verdicts[i].detail);
	}
	for (size_t i = 0; i < j->n_measurements; i++) {
		free(j->measurements[i].name);
		free(j->measurements[i].filesystem);
		free(j->measurements[i].unit);
	}
	free(j->verdicts);
	free(j->measurements);
	memset(j, 0, sizeof(*j));
}

int judge_add(const struct judge_context *c, struct judgement *j, const char *name,
	      const char *filesystem, enum results_verdict_result result, const char *detail,
	      const char *const *messages, size_t n_messages, struct rig_err *err)
{
	struct judge_verdict *v;
	const char *known_id = NULL;
	bool failed = false;

	if (result == RESULTS_VERDICT_FAIL && c->known &&
	    known_classify(c->known, name, filesystem, c->kernel_version, c->knob_freeze_filesystems,
			   messages, n_messages, &known_id) != 1)
		known_id = NULL;
	if (array_grow((void **)&j->verdicts, &j->cap_verdicts, j->n_verdicts, sizeof(*j->verdicts)))
		return rig_err_set(err, RIG_EXIT_INFRA, "judge: out of memory");
	v = &j->verdicts[j->n_verdicts];
	*v = (struct judge_verdict){
		.name = copy(name, &failed), .filesystem = copy(filesystem, &failed),
		.result = result, .known_issue = known_id, .detail = copy(detail, &failed),
	};
	j->n_verdicts++;
	return failed ? rig_err_set(err, RIG_EXIT_INFRA, "judge: out of memory") : 0;
}

int judge_measure(struct judgement *j, const char *name, const char *filesystem, double value,
		  const char *unit, struct rig_err *err)
{
	struct judge_measurement *m;
	bool failed = false;

	if (array_grow((void **)&j->measurements, &j->cap_measurements, j->n_measurements,
		       sizeof(*j->measurements)))
		return rig_err_set(err, RIG_EXIT_INFRA, "judge: out of memory");
	m = &j->measurements[j->n_measurements];
	*m = (struct judge_measurement){
		.name = copy(name, &failed), .filesystem = copy(filesystem, &failed), .value = value,
		.unit = copy(unit, &failed),
	};
	j->n_measurements++;
	return failed ? rig_err_set(err, RIG_EXIT_INFRA, "judge: out of memory") : 0;
}

bool judge_event_worth_storing(enum kevent_kind kind)
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
