#!/usr/bin/env bash
# readers.sh — `rig results`, `rig dashboard` and `rig known` only read the results database
# (issue 22, part 3): they open it read-only, never migrate it or change its journal mode, never
# write a schema into an empty file, never touch a SQLite file that is not ours, refuse a newer
# schema with exit 2, and work on a database in a directory the reader cannot write (run as
# another user: rigtest, added without a home when missing, when this runs as root). `rig results`
# frees what it allocated on "no runs" (valgrind). No VM; about 5 s.
# Usage: rig/tests/cli/readers.sh   (after `make rig`; RIG=path/to/rig to override)
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
RIG=${RIG:-$top/out/bin/rig}
[ -x "$RIG" ] || { echo "readers.sh: $RIG missing (make rig)"; exit 2; }
RIG=$(realpath "$RIG")
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-readers.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
chmod 755 "$work"
passed=0 failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; cat "$work/err" 2>/dev/null; fi; }

# as_reader CMD...: run as a user who cannot write the database's directory
if [ "$(id -u)" = 0 ]; then
    id rigtest >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin rigtest ||
        { echo "readers.sh: cannot add user rigtest"; exit 2; }
    as_reader() { setpriv --reuid rigtest --regid rigtest --clear-groups "$@"; }
else
    as_reader() { "$@"; }
fi
# run_rig CODE CMD...: the exit status is CODE (output in $work/out, $work/err)
run_rig() { local want=$1; shift; "$@" >"$work/out" 2>"$work/err"; rc=$?; [ "$rc" = "$want" ]; }
# What a reader must not change: the file's bytes (its header holds the journal mode and the
# schema version) and the -wal's, where there is one (a commit goes there first). Read without
# SQLite, which would add a -shm and -wal beside the file and so hide what the reader itself needs.
# (SQLite may add an empty -wal and a -shm index for a reader; neither is data.)
state() {
    sha256sum "$1" | cut -d' ' -f1
    [ ! -s "$1-wal" ] || sha256sum "$1-wal" | cut -d' ' -f1
}
# readers [as_reader] DB CODE: each reader exits CODE on DB (run as the other user with as_reader:
# a reader that cannot write; without it as this user, so a reader that writes is caught writing)
readers() {
    local as=() db want site
    [ "$1" = as_reader ] && { as=(as_reader); shift; }
    db=$1 want=$2 site=$work/site.$RANDOM
    mkdir -p "$site" && chmod 777 "$site"
    run_rig "$want" "${as[@]}" "$RIG" results --db "$db" || { echo "rig results: exit $rc"; return 1; }
    cp "$work/out" "$work/results.out"
    run_rig "$want" "${as[@]}" "$RIG" dashboard --db "$db" --out "$site" || { echo "rig dashboard: exit $rc"; return 1; }
    run_rig "$want" "${as[@]}" "$RIG" known --db "$db" || { echo "rig known: exit $rc"; return 1; }
}

# A database written by this rig (a LAVA export read from a file), its WAL kept beside it.
db=$work/w/results.db
mkdir -p "$work/w"
"$RIG" lava import --db "$db" --rest rig/tests/data/lava/rest-nightly.json --job-id 7 >/dev/null 2>&1
[ -s "$db" ] || { echo "readers.sh: no database made"; exit 2; }
# copies of the main file only (a writer checkpoints it whole when it closes), before anything
# else opens it: the sqlite3 shell would checkpoint and delete the writer's -wal and -shm
mkdir -p "$work/c" && cp "$db" "$work/c/results.db"
cp "$db" "$work/old.db" && cp "$db" "$work/new.db" && cp "$db" "$work/none.db"

# 1. in a directory the reader cannot write, with the writer's -wal and -shm there
check "the writer keeps its -wal and -shm when it closes" test -e "$db-wal" -a -e "$db-shm"
chmod 555 "$work/w"
before=$(state "$db")
check "results, dashboard, known read a WAL database in a directory they cannot write" readers as_reader "$db" 0
check "... and show its run" grep -q 'laptop-x86.*fail' "$work/results.out"
check "... and change nothing (its bytes, journal mode, user_version)" [ "$(state "$db")" = "$before" ]

# 2. the same database with no -wal file (copied, or closed by an older rig): read as immutable
chmod 555 "$work/c"
before=$(state "$work/c/results.db")
check "readers open a WAL database with no -wal file in a directory they cannot write" \
    readers as_reader "$work/c/results.db" 0
check "... and change nothing" [ "$(state "$work/c/results.db")" = "$before" ]

# 3. an older schema is read as it is, never migrated
chmod 755 "$work/w"
sqlite3 "$work/old.db" 'PRAGMA user_version = 2'
before=$(state "$work/old.db")
check "readers read an older schema" readers "$work/old.db" 0
check "... without migrating it (user_version 2, file unchanged)" [ "$(state "$work/old.db")" = "$before" ]

# 4. a newer schema is refused by every reader, the dashboard too
sqlite3 "$work/new.db" 'PRAGMA user_version = 99'
check "readers refuse a newer schema (exit 2)" readers "$work/new.db" 2
check "... saying so" grep -q 'schema version 99 is newer' "$work/err"

# 5. an empty file is not given a schema
: >"$work/empty.db"
check "readers refuse an empty file (exit 2)" readers "$work/empty.db" 2
check "... and leave it empty" [ ! -s "$work/empty.db" ]

# 6. a SQLite file that is not ours is refused unchanged, by the readers and by a writer
sqlite3 "$work/foreign.db" 'CREATE TABLE t (x); INSERT INTO t VALUES (1)'
before=$(state "$work/foreign.db")
check "readers refuse a foreign SQLite file (exit 2)" readers "$work/foreign.db" 2
check "rig lava import refuses it too (exit 2)" run_rig 2 "$RIG" lava import --db "$work/foreign.db" \
    --rest rig/tests/data/lava/rest-nightly.json --job-id 7
check "... and its journal mode and contents stay as they were" [ "$(state "$work/foreign.db")" = "$before" ]

# negative control: state() sees what a writer changes
"$RIG" lava import --db "$work/old.db" --rest rig/tests/data/lava/rest-nightly.json --job-id 8 >/dev/null 2>&1
check "negative control: a writer's change to the file is seen" [ "$(state "$work/old.db")" != "$before" ]

# 7. "no runs" frees everything (the text table was leaked)
sqlite3 "$work/none.db" 'DELETE FROM runs'
if command -v valgrind >/dev/null; then
    check "rig results on no runs: no leak (valgrind)" run_rig 0 valgrind -q --leak-check=full \
        --errors-for-leak-kinds=definite --error-exitcode=9 "$RIG" results --db "$work/none.db"
else
    echo "skip - valgrind missing: the no-runs leak is not checked"
fi

echo "cli readers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
