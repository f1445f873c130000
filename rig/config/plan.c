/* plan_load(): decode a plan file with its schema and normalise what it asks for. */
#include "config/plan.h"

#include <stdlib.h>
#include <string.h>

#include "config/plan_schema.h"

/* "none" is how a plan says "no workloads" explicitly; it cannot be mixed with real ones. */
static int normalise_workloads(struct plan *plan, const struct ydoc *doc, struct rig_err *err)
{
	for (size_t i = 0; i < plan->n_workloads; i++) {
		if (strcmp(plan->workloads[i], "none") != 0)
			continue;
		if (plan->n_workloads > 1)
			return ydoc_error(doc, err, ydoc_lookup_line(doc, "workloads"), "workloads",
					  "\"none\" cannot be combined with other workloads");
		free(plan->workloads[0]);
		free(plan->workloads);
		plan->workloads = NULL;
		plan->n_workloads = 0;
	}
	return 0;
}

static int decode_plan(struct ydoc *doc, struct plan *plan, struct rig_err *err)
{
	struct ydecoder dec;

	ydecoder_init(&dec, doc, err);
	if (yschema_decode(&dec, ydoc_root(doc), &plan_schema, plan))
		return -1;
	return normalise_workloads(plan, doc, err);
}

int plan_load(const char *path, struct plan **out, struct rig_err *err)
{
	struct ydoc doc;
	struct plan *plan;
	int rc;

	*out = NULL;
	if (ydoc_load(&doc, path, err))
		return -1;
	plan = calloc(1, sizeof(*plan));
	if (!plan || !(plan->path = strdup(path))) {
		free(plan);
		ydoc_free(&doc);
		return rig_err_set(err, RIG_EXIT_INFRA, "%s: out of memory", path);
	}
	rc = decode_plan(&doc, plan, err);
	ydoc_free(&doc);
	if (rc) {
		plan_free(plan);
		return -1;
	}
	*out = plan;
	return 0;
}

void plan_free(struct plan *plan)
{
	if (!plan)
		return;
	yschema_release(&plan_schema, plan);
	free(plan->path);
	free(plan);
}
