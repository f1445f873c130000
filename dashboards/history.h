/*
 * Regression history of a board, worded as KernelCI regression mails do: a failure is "new" when
 * its streak of failing runs began on the board's latest night, otherwise it is "failing since"
 * the streak's first night. Runs with status pass or known count as good (known issues are not
 * regressions), fail as bad, and infra/aborted/running runs are skipped: they prove nothing.
 */
#ifndef RIG_DASHBOARD_HISTORY_H
#define RIG_DASHBOARD_HISTORY_H

#include "dashboards/model.h"

enum dash_trend {
	DASH_TREND_NONE,      /* no pass or fail run at all */
	DASH_TREND_OK,        /* the latest decisive run is good */
	DASH_TREND_NEW,       /* failing, streak began on the latest night */
	DASH_TREND_SINCE,     /* failing for more than the latest night */
};

struct dash_history {
	enum dash_trend trend;
	const struct dash_run *first_bad;   /* first run of the most recent bad streak, or NULL */
	const struct dash_run *last_good;   /* last good run before that streak, or NULL */
	const struct dash_run *fixed_by;    /* first good run after the streak, NULL while failing */
	const struct dash_run *latest;      /* latest decisive run */
	int n_bad;                          /* runs in the most recent bad streak */
};

/* The board as a whole, from its runs' statuses. */
void dash_board_history(const struct dash_model *m, const struct dash_board *b,
			struct dash_history *h);
/* One verdict name: bad when it failed without a known issue in the run. */
void dash_verdict_history(const struct dash_model *m, const struct dash_board *b,
			  const char *verdict, struct dash_history *h);

/* The verdict's summary in run r, or NULL when the run did not evaluate it. */
const struct dash_verdict_sum *dash_run_verdict(const struct dash_run *r, const char *name);

#endif
