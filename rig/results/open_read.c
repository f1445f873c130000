/*
 * Opening the database for a reader (RESULTS_OPEN_READ): SQLITE_OPEN_READONLY, so nothing a
 * reader does can change the file, and it works on a database in a directory the reader cannot
 * write.
 *
 * A WAL database needs its -shm index. While a writer has it open (or after any writer of this
 * rig closed it: results_db_keep_wal() keeps -wal and -shm) a read-only connection uses the
 * existing files. When neither exists (the last writer was an older rig, or a copy of the file)
 * and the directory is not ours to create them in, SQLite refuses; with no -wal file the main
 * file holds every committed transaction, so it is read as immutable instead. A writer starting
 * meanwhile writes to a new -wal, not into the main file, until it checkpoints, so the reader's
 * snapshot stays whole for anything but a long read racing a checkpoint.
 */
#include "results/db_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "file:" URI of path with every byte outside the unreserved set percent-encoded. */
static char *immutable_uri(const char *path)
{
	static const char prefix[] = "file:", suffix[] = "?immutable=1";
	size_t n = strlen(path);
	char *uri = malloc(sizeof(prefix) + 3 * n + sizeof(suffix)), *p;

	if (!uri)
		return NULL;
	p = uri + sprintf(uri, "%s", prefix);
	for (const unsigned char *s = (const unsigned char *)path; *s; s++)
		p += strchr("/-._~", *s) || (*s >= '0' && *s <= '9') || ((*s | 0x20) >= 'a' &&
		     (*s | 0x20) <= 'z') ? sprintf(p, "%c", *s) : sprintf(p, "%%%02X", *s);
	strcpy(p, suffix);
	return uri;
}

/* The first read: user_version, which is what the reader checks next anyway. */
static int first_read(sqlite3 *sql)
{
	return sqlite3_exec(sql, "PRAGMA user_version", NULL, NULL, NULL);
}

static int wal_file_exists(const char *path)
{
	char wal[4096];

	if ((size_t)snprintf(wal, sizeof(wal), "%s-wal", path) >= sizeof(wal))
		return 1;   /* cannot tell: do not guess immutable */
	return access(wal, F_OK) == 0 || errno != ENOENT;
}

static int open_immutable(struct results_db *db, struct rig_err *err)
{
	char *uri = immutable_uri(db->path);
	int rc;

	if (!uri)
		return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: out of memory", db->path);
	sqlite3_close_v2(db->sql);
	db->sql = NULL;
	rc = sqlite3_open_v2(uri, &db->sql, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
			     SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		if (!db->sql)
			return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: out of memory",
					   db->path);
		return results_db_fail(db, "open read-only", err);
	}
	return 0;
}

int results_db_open_reader(struct results_db *db, struct rig_err *err)
{
	int rc;

	if (sqlite3_open_v2(db->path, &db->sql, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		if (!db->sql)
			return rig_err_set(err, RIG_EXIT_INFRA, "results db %s: out of memory",
					   db->path);
		return results_db_fail(db, "open read-only", err);
	}
	rc = first_read(db->sql);
	if (rc == SQLITE_OK)
		return 0;
	/* SQLITE_READONLY_CANTINIT and friends: no -shm to use and none can be made */
	if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) {
		if (!wal_file_exists(db->path))
			return open_immutable(db, err);
	}
	return results_db_fail(db, "open read-only", err);
}
