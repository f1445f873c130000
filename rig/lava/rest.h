/*
 * What the rig asks a LAVA server (REST API v0.2): submit a job, follow it, list finished jobs,
 * fetch a job's test cases. Lists are paginated (limit/offset): every function follows `next`
 * until the server says there is no more, so a long job or a long night is never cut short.
 */
#ifndef RIG_LAVA_REST_H
#define RIG_LAVA_REST_H

#include <stddef.h>

#include "lava/cases.h"
#include "lava/http.h"

#define LAVA_REST_PAGE_SIZE 100
#define LAVA_REST_MAX_PAGES 100000  /* a server whose `next` never ends is an error, not a hang */

struct lava_job_status {
	long long id;
	char state[32];     /* Submitted Scheduling Scheduled Running Canceling Finished */
	char health[32];    /* Unknown Complete Incomplete Canceled */
	char device[128];   /* actual_device, "" before scheduling */
	char end_time[40];
	/* metadata rig.board, rig.plan, rig.kernel_version of the job's definition: "" when not a
	 * rig job */
	char board[128], plan[128], kernel[128];
};

/* Calls each(item) for every result of a list URL (path or absolute), page after page; pages
 * counts the pages fetched. The URL should order the list (ordering=id): limit/offset pages of an
 * unordered PostgreSQL query may repeat or skip rows. A `next` is always asked of the configured server, with its path and
 * query only: the token never goes to another host. */
int lava_rest_each(const struct lava_server *s, const char *url,
		   int (*each)(json_t *item, void *ctx), void *ctx, size_t *pages,
		   struct rig_err *err);

int lava_rest_submit(const struct lava_server *s, const char *definition, long long *job_id,
		     struct rig_err *err);
int lava_rest_job_status(const struct lava_server *s, long long job_id,
			 struct lava_job_status *st, struct rig_err *err);
/* The job's test cases (suite names resolved through /suites/), page_size per request (0: the
 * default). */
int lava_rest_job_cases(const struct lava_server *s, long long job_id, size_t page_size,
			struct lava_cases *cases, size_t *pages, struct rig_err *err);

/* Ids of finished jobs that ended after since ("2026-12-03" or an ISO time), oldest first,
 * optionally only those that ran on device. *ids is malloc'd. */
int lava_rest_finished_jobs(const struct lava_server *s, const char *since, const char *device,
			    size_t page_size, long long **ids, size_t *n, size_t *pages,
			    struct rig_err *err);

/* The job's page on the server (for people): URL/scheduler/job/N. */
int lava_job_page(const struct lava_server *s, long long job_id, char *buf, size_t size);

#endif
