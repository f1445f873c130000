#include "results/schema.h"

/*
 * Version 1. Tables are STRICT so a wrongly typed bind fails loudly instead of being stored as
 * whatever affinity makes of it; CHECK constraints keep status words in the documented set
 * because the dashboard and known-issue matching compare them literally.
 */
static const char schema_v1[] =
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" board TEXT NOT NULL,"
	" board_file TEXT,"
	" plan TEXT,"
	" plan_file TEXT,"
	" source TEXT NOT NULL DEFAULT 'rig' CHECK (source IN ('rig','lava')),"
	" lava_job_id TEXT,"
	" night TEXT NOT NULL,"
	" kernel_version TEXT,"
	" kernel_meta TEXT CHECK (kernel_meta IS NULL OR json_valid(kernel_meta)),"
	" kernel_sha TEXT,"
	" freeze_series TEXT,"
	" knob_freeze_filesystems INTEGER,"
	" knob_sync_on_suspend INTEGER,"
	" started_at REAL NOT NULL,"
	" ended_at REAL,"
	" status TEXT NOT NULL DEFAULT 'running'"
	"  CHECK (status IN ('running','pass','fail','known','infra','aborted')),"
	" exit_code INTEGER,"
	" console_log TEXT,"
	" host TEXT,"
	" rig_version TEXT"
	") STRICT;"
	"CREATE INDEX runs_board_started ON runs(board, started_at);"
	"CREATE INDEX runs_night ON runs(night);"

	"CREATE TABLE cycles ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL,"
	" step_kind TEXT NOT NULL,"
	" step_desc TEXT,"
	" status TEXT NOT NULL CHECK (status IN ('pass','fail','hang','infra','aborted')),"
	" hang_phase TEXT,"
	" started_at REAL NOT NULL,"
	" ended_at REAL,"
	" knob_freeze_filesystems INTEGER,"
	" knob_sync_on_suspend INTEGER,"
	" kernel_version TEXT,"
	" console_from INTEGER,"
	" console_to INTEGER,"
	" console_tail TEXT,"
	" UNIQUE (run_id, idx)"
	") STRICT;"
	"CREATE INDEX cycles_run ON cycles(run_id);"

	"CREATE TABLE verdicts ("
	" id INTEGER PRIMARY KEY,"
	" cycle_id INTEGER NOT NULL REFERENCES cycles(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL,"
	" filesystem TEXT,"
	" result TEXT NOT NULL CHECK (result IN ('pass','fail','skip','error')),"
	" known_issue TEXT,"
	" detail TEXT,"
	" kernel_version TEXT,"
	" knob_freeze_filesystems INTEGER"
	") STRICT;"
	"CREATE INDEX verdicts_cycle ON verdicts(cycle_id);"

	"CREATE TABLE measurements ("
	" id INTEGER PRIMARY KEY,"
	" cycle_id INTEGER NOT NULL REFERENCES cycles(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL,"
	" filesystem TEXT,"
	" value REAL NOT NULL,"
	" unit TEXT"
	") STRICT;"
	"CREATE INDEX measurements_cycle ON measurements(cycle_id);"

	"CREATE TABLE events ("
	" id INTEGER PRIMARY KEY,"
	" cycle_id INTEGER NOT NULL REFERENCES cycles(id) ON DELETE CASCADE,"
	" kind TEXT NOT NULL,"
	" kernel_ts REAL,"
	" host_ts REAL NOT NULL,"
	" text TEXT"
	") STRICT;"
	"CREATE INDEX events_cycle ON events(cycle_id);"

	"CREATE TABLE artefacts ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" cycle_id INTEGER REFERENCES cycles(id) ON DELETE CASCADE,"
	" kind TEXT NOT NULL,"
	" path TEXT NOT NULL"
	") STRICT;"
	"CREATE INDEX artefacts_run ON artefacts(run_id);"

	"CREATE TABLE bisects ("
	" id INTEGER PRIMARY KEY,"
	" board TEXT NOT NULL,"
	" plan TEXT,"
	" good TEXT NOT NULL,"
	" bad TEXT NOT NULL,"
	" confidence REAL,"
	" result_commit TEXT,"
	" result_confidence REAL,"
	" status TEXT NOT NULL DEFAULT 'running',"
	" started_at REAL NOT NULL,"
	" ended_at REAL"
	") STRICT;"

	"CREATE TABLE bisect_steps ("
	" id INTEGER PRIMARY KEY,"
	" bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL,"
	" \"commit\" TEXT NOT NULL,"
	" cycles INTEGER NOT NULL,"
	" fails INTEGER NOT NULL,"
	" verdict TEXT,"
	" posterior_top3 TEXT CHECK (posterior_top3 IS NULL OR json_valid(posterior_top3)),"
	" at REAL NOT NULL,"
	" UNIQUE (bisect_id, idx)"
	") STRICT;"

	/* History of applied migrations, for humans; user_version is what the code trusts. */
	"CREATE TABLE schema_version ("
	" version INTEGER PRIMARY KEY,"
	" applied_at REAL NOT NULL"
	") STRICT;";

/*
 * Version 2: a LAVA job is stored once. runs.lava_server is the server a job was fetched from
 * (NULL for a log or export read from a file); (server, job id) is unique. Copies stored by
 * earlier imports, which had no such key, are dropped, keeping the first.
 */
static const char schema_v2[] =
	"ALTER TABLE runs ADD COLUMN lava_server TEXT;"
	"DELETE FROM runs WHERE lava_job_id IS NOT NULL AND id NOT IN"
	" (SELECT min(id) FROM runs WHERE lava_job_id IS NOT NULL GROUP BY lava_job_id);"
	"CREATE UNIQUE INDEX runs_lava_job ON runs(ifnull(lava_server, ''), lava_job_id)"
	" WHERE lava_job_id IS NOT NULL;";

/*
 * Version 3: the identity of the kernel the board ran (kernel/build.sh's meta.json "build_id", as
 * the board reported it after booting: rig-dut info) on runs and cycles, and the board's deploy
 * backend (boards/README.md, deploy:) on runs. NULL for runs stored before, and for a board that
 * did not report one.
 */
static const char schema_v3[] =
	"ALTER TABLE runs ADD COLUMN kernel_build_id TEXT;"
	"ALTER TABLE runs ADD COLUMN deploy TEXT;"
	"ALTER TABLE cycles ADD COLUMN kernel_build_id TEXT;";

/*
 * Version 4: each cycle's time budget (judge/budget.h): one row per phase the rig budgets
 * (presync, kernel_sync, freeze_tasks, freeze_fs, device_suspend, asleep, resume, thaw, collect,
 * reboot), seconds NULL where the evidence did not show the phase (unknown, never 0). Cycles
 * stored before have no rows.
 */
static const char schema_v4[] =
	"CREATE TABLE cycle_phases ("
	" id INTEGER PRIMARY KEY,"
	" cycle_id INTEGER NOT NULL REFERENCES cycles(id) ON DELETE CASCADE,"
	" phase TEXT NOT NULL,"
	" seconds REAL CHECK (seconds IS NULL OR seconds >= 0),"
	" UNIQUE (cycle_id, phase)"
	") STRICT;";

/*
 * Version 5: the host's CPU accounting of each cycle of a board that runs on this host (QEMU;
 * judge/starvation.h): the window's wall time, QEMU's threads' time on a CPU and waiting on a
 * run queue (summed schedstat), the host's PSI "some" CPU pressure (NULL: unavailable), whether
 * that was starvation and whether it made the cycle's hang or failure an infra cycle. A real
 * board's cycles have a row with applicable 0. Cycles stored before (and LAVA's) have none.
 */
static const char schema_v5[] =
	"CREATE TABLE cycle_host_cpu ("
	" cycle_id INTEGER PRIMARY KEY REFERENCES cycles(id) ON DELETE CASCADE,"
	" applicable INTEGER NOT NULL CHECK (applicable IN (0, 1)),"
	" window_end TEXT CHECK (window_end IN ('end','hang')),"
	" window_s REAL CHECK (window_s IS NULL OR window_s >= 0),"
	" qemu_run_s REAL CHECK (qemu_run_s IS NULL OR qemu_run_s >= 0),"
	" qemu_wait_s REAL CHECK (qemu_wait_s IS NULL OR qemu_wait_s >= 0),"
	" psi_some_s REAL CHECK (psi_some_s IS NULL OR psi_some_s >= 0),"
	" starved INTEGER NOT NULL CHECK (starved IN (0, 1)),"
	" reclassified INTEGER NOT NULL CHECK (reclassified IN (0, 1)),"
	" detail TEXT"
	") STRICT;";

/*
 * Version 6: the per-device suspend/resume timeline of cycles whose plan asks for it
 * (`timeline: true`; results/timeline.h): cycle_timelines, one row per such cycle (status 'on',
 * or 'unavailable' with the board's reason: a kernel without the power events), and
 * timeline_rows, its suspend_resume marks, device callbacks per phase, the "others" of a phase
 * under the board's threshold, the filesystems the kernel froze and the writers' stalls, in µs
 * from base_ns (CLOCK_BOOTTIME); dur_us NULL for a span that never ended. Cycles stored before,
 * and cycles of plans without it, have no rows.
 */
static const char schema_v6[] =
	"CREATE TABLE cycle_timelines ("
	" cycle_id INTEGER PRIMARY KEY REFERENCES cycles(id) ON DELETE CASCADE,"
	" status TEXT NOT NULL CHECK (status IN ('on','unavailable')),"
	" reason TEXT,"
	" base_ns INTEGER,"
	" events INTEGER NOT NULL,"
	" lost INTEGER NOT NULL,"
	" bad_lines INTEGER NOT NULL,"
	" min_us INTEGER NOT NULL"
	") STRICT;"
	"CREATE TABLE timeline_rows ("
	" id INTEGER PRIMARY KEY,"
	" cycle_id INTEGER NOT NULL REFERENCES cycles(id) ON DELETE CASCADE,"
	" kind TEXT NOT NULL CHECK (kind IN ('mark','device','others','frozen','stall')),"
	" phase TEXT,"
	" name TEXT NOT NULL,"
	" driver TEXT,"
	" start_us INTEGER NOT NULL,"
	" dur_us INTEGER CHECK (dur_us IS NULL OR dur_us >= 0),"
	" err INTEGER NOT NULL DEFAULT 0,"
	" count INTEGER NOT NULL DEFAULT 1 CHECK (count >= 1)"
	") STRICT;"
	"CREATE INDEX timeline_rows_cycle ON timeline_rows(cycle_id);";

/*
 * Version 7: each suspend's wake accounting (judge/wake_time.h; issue 18 part 5), at most one row
 * per cycle: how the plan woke the board, the alarm (requested_ms, NULL without one), the time
 * from arming it to the board asleep as the host saw it (entry_ms), the board's own figures
 * (asleep_ms: Δboottime − Δmonotonic across the sleep, awake_ms: Δmonotonic), the wakeup IRQ
 * and the wakeup sources that counted ("NAME:EVENTS:WAKEUPS,..."; '' none did). NULL: unknown
 * or unavailable on the board. rescued: the alarm never woke it, the rig did.
 */
static const char schema_v7[] =
	"CREATE TABLE cycle_wakes ("
	" cycle_id INTEGER PRIMARY KEY REFERENCES cycles(id) ON DELETE CASCADE,"
	" wake TEXT NOT NULL,"
	" requested_ms INTEGER CHECK (requested_ms IS NULL OR requested_ms >= 0),"
	" entry_ms INTEGER,"
	" asleep_ms INTEGER CHECK (asleep_ms IS NULL OR asleep_ms >= 0),"
	" awake_ms INTEGER CHECK (awake_ms IS NULL OR awake_ms >= 0),"
	" irq INTEGER,"
	" irq_name TEXT,"
	" sources TEXT,"
	" rescued INTEGER NOT NULL DEFAULT 0 CHECK (rescued IN (0, 1))"
	") STRICT;";

/*
 * Version 8: each judged hibernation's mode and path (judge/hibernate_mode.h; issue 18 part 4), at
 * most one row per cycle: the plan's mode (asked) and, for a hybrid sleep, whether it asked for a
 * power cut in S3; the mode /sys/power/disk said the kernel would use (NULL: unknown); how the
 * board went down (stayed, power-off, s4, reboot, off, s3), whether the rig cut its power in S3,
 * how it came back (restored, ram, in-place, returned, fresh-boot, refused) and whether that was
 * the path asked for (the hibernate-mode verdict). Cycles stored before have none.
 */
static const char schema_v8[] =
	"CREATE TABLE cycle_hibernations ("
	" cycle_id INTEGER PRIMARY KEY REFERENCES cycles(id) ON DELETE CASCADE,"
	" asked TEXT NOT NULL"
	"  CHECK (asked IN ('shutdown','platform','reboot','suspend','test_resume')),"
	" power_cut_asked INTEGER NOT NULL CHECK (power_cut_asked IN (0, 1)),"
	" kernel_mode TEXT,"
	" went TEXT NOT NULL CHECK (went IN ('stayed','power-off','s4','reboot','off','s3')),"
	" power_cut INTEGER NOT NULL CHECK (power_cut IN (0, 1)),"
	" came_back TEXT NOT NULL"
	"  CHECK (came_back IN ('restored','ram','in-place','returned','fresh-boot','refused')),"
	" matched INTEGER NOT NULL CHECK (matched IN (0, 1))"
	") STRICT;";

const char *const results_schema_migrations[] = {
	schema_v1,
	schema_v2,
	schema_v3,
	schema_v4,
	schema_v5,
	schema_v6,
	schema_v7,
	schema_v8,
};

const size_t results_schema_n_migrations =
	sizeof(results_schema_migrations) / sizeof(results_schema_migrations[0]);
