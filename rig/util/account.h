/* Names of the lab's accounts for messages: who holds a lock, who owns a file, who connected. */
#ifndef RIG_UTIL_ACCOUNT_H
#define RIG_UTIL_ACCOUNT_H

#include <stddef.h>
#include <sys/types.h>

/* The user's name, or "uid N" when the account database does not know it. */
void account_user_name(uid_t uid, char *buf, size_t size);
/* The group's name, or "gid N". */
void account_group_name(gid_t gid, char *buf, size_t size);

#endif
