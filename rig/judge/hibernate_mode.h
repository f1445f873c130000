/* The hibernate-mode verdict: did a hibernation take the path its mode (/sys/power/disk) asks?
 * The engine says how the board left after `rig-dut hibernate MODE` (it replied, switched itself
 * off, or went to S3) and how it came back (its old userspace answered, or a fresh boot's agent);
 * the console's kernel events since the command say how it went down (ACPI S4, a reset, a power
 * off) and whether an image was written and read back in place. Pure: no I/O.
 *
 *   shutdown      powered off (not through S4, not a reset), image restored at power-on
 *   platform      ACPI S4 after the image was written, image restored
 *   reboot        the kernel reset the board ("reboot: Restarting system"), image restored
 *   suspend       S3 after the image was written; woken: back from RAM, no restore; power cut
 *                 in S3 (power_cut: yes): the image restored at the next boot
 *   test_resume   no power-off and no sleep: the image written and read back in place
 *   resume: no    (any mode that powers off) a fresh boot with noresume: the image discarded
 *
 * A mode the kernel does not offer (rig-dut's error=mode-not-offered) fails, naming what it does
 * offer: the rig never lets the kernel fall back to another mode silently. */
#ifndef RIG_JUDGE_HIBERNATE_MODE_H
#define RIG_JUDGE_HIBERNATE_MODE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/plan.h"
#include "judge/judge.h"

enum hib_left {
	HIB_LEFT_NOT,           /* rig-dut replied: the board never switched off or slept */
	HIB_LEFT_OFF,           /* it switched itself off (QEMU -no-reboot: a reset exits too) */
	HIB_LEFT_S3,            /* it went to sleep after writing its image (a hybrid sleep) */
};

enum hib_back {
	HIB_BACK_REPLY,         /* its old userspace answered the hibernate command */
	HIB_BACK_FRESH_BOOT,    /* a fresh boot's agent: the image was not restored (or discarded) */
};

struct hib_path {
	/* what the plan asked */
	enum hibernate_mode asked;
	bool cut_asked;                 /* mode suspend: a power cut in S3, then the restore */
	bool discard_asked;             /* resume: no, the next boot discards the image */
	/* what the engine saw */
	enum hib_left left;
	bool cut;                       /* the rig cut the power while the board was in S3 */
	enum hib_back back;
	/* the console's kernel events from the command on (hib_path_feed) */
	bool image_saved, image_loaded, s4_after_save, restart, power_down, booted;
	/* rig-dut's reply (hib_path_reply) */
	bool refused;                   /* error=mode-not-offered */
	char kernel_mode[16];           /* mode=: /sys/power/disk's choice as rig-dut left it (a
					 * refused mode: the kernel's own, untouched) */
	char offered[96];               /* offered=: the modes the kernel lists, when it refused */
};

/* Add the kernel events that arrived (host time) at or after since. */
void hib_path_feed(struct hib_path *p, const struct judge_event *ev, size_t n, double since);
/* Read rig-dut hibernate's result line: mode=, error=, offered=. */
void hib_path_reply(struct hib_path *p, const char *line);

/* What happened, in the words stored in cycle_hibernations: how the board went down ("stayed",
 * "power-off", "s4", "reboot", "off" (switched off, the console did not say how), "s3") and how
 * it came back ("restored", "ram", "in-place", "returned" (no image came back: nothing
 * hibernated), "fresh-boot", "refused"). */
const char *hib_went(const struct hib_path *p);
const char *hib_came_back(const struct hib_path *p);
/* Whether that is the path the plan asked for; expected says what that is, for people. */
bool hib_path_matches(const struct hib_path *p, char *expected, size_t size);

/* The hibernate-mode verdict. */
int judge_hibernate_mode(const struct judge_context *c, struct judgement *j,
			 const struct hib_path *p, struct rig_err *err);
/* What the hibernate verdict (judge_hibernate) is to judge of this path: a board that stayed is
 * a failure unless its mode (test_resume) comes back in place. */
enum judge_hibernation hib_transition(const struct hib_path *p);
/* A hibernation's verdicts: hibernate (with systemd-sleep's; none when the plan discarded the
 * image: the verification after the noresume boot judges that) and hibernate-mode. s: rig-dut's
 * reply (zeroed when the board came back with a fresh boot). */
int judge_hibernation(const struct judge_context *c, struct judgement *j, const struct ev_sleep *s,
		      const struct hib_path *p, struct rig_err *err);
/* The row results/ stores for the cycle (cycle_hibernations). */
void hib_path_record(const struct hib_path *p, struct results_hibernation *out);

#endif
