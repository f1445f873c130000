#include "util/account.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>

void account_user_name(uid_t uid, char *buf, size_t size)
{
	struct passwd pw, *found = NULL;
	char tmp[1024];

	if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &found) == 0 && found)
		snprintf(buf, size, "%s", found->pw_name);
	else
		snprintf(buf, size, "uid %u", (unsigned)uid);
}

void account_group_name(gid_t gid, char *buf, size_t size)
{
	struct group gr, *found = NULL;
	char tmp[4096];

	if (getgrgid_r(gid, &gr, tmp, sizeof(tmp), &found) == 0 && found)
		snprintf(buf, size, "%s", found->gr_name);
	else
		snprintf(buf, size, "gid %u", (unsigned)gid);
}
