/* Who may drive a board through `rig powerd`: the peer's kernel-given credentials (SO_PEERCRED,
 * SO_PEERGROUPS) against the daemon's owner and an optional group; the socket file's mode is
 * only a first fence (a umask or a chmod can open it). */
#ifndef RIG_POWER_PEER_CRED_H
#define RIG_POWER_PEER_CRED_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct peer_policy {
	uid_t owner;          /* the daemon's user */
	bool has_group;
	gid_t group;          /* members may drive the board too (`rig powerd --group`) */
};

/* 1 when the peer on fd may send requests, 0 when not (why: a message for the peer, naming its
 * uid and who may), -1 when its credentials cannot be read (why says so). root always may. */
int peer_allowed(int fd, const struct peer_policy *policy, char *why, size_t size);

#endif
