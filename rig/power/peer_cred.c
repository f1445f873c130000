#include "power/peer_cred.h"
#include "util/account.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define PEER_GROUPS_MAX 256

/* The peer's supplementary groups hold gid (SO_PEERGROUPS, Linux 4.13): what it had at connect. */
static bool in_groups(int fd, gid_t gid)
{
	gid_t groups[PEER_GROUPS_MAX];
	socklen_t len = sizeof(groups);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) != 0)
		return false;
	for (size_t i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == gid)
			return true;
	return false;
}

int peer_allowed(int fd, const struct peer_policy *policy, char *why, size_t size)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char peer[64], owner[64], group[64];

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof(cred)) {
		snprintf(why, size, "cannot read the peer's credentials: %s", strerror(errno));
		return -1;
	}
	if (cred.uid == 0 || cred.uid == policy->owner ||
	    (policy->has_group && (cred.gid == policy->group || in_groups(fd, policy->group))))
		return 1;
	account_user_name(cred.uid, peer, sizeof(peer));
	account_user_name(policy->owner, owner, sizeof(owner));
	if (policy->has_group) {
		account_group_name(policy->group, group, sizeof(group));
		snprintf(why, size, "refused: %s (uid %u, pid %d) may not drive this board; rig powerd "
			 "serves %s and group %s", peer, (unsigned)cred.uid, (int)cred.pid, owner,
			 group);
	} else {
		snprintf(why, size, "refused: %s (uid %u, pid %d) may not drive this board; rig powerd "
			 "serves %s only (start it with --group to share it)", peer,
			 (unsigned)cred.uid, (int)cred.pid, owner);
	}
	return 0;
}
