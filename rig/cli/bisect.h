/* rig bisect, rig bisect-sim and rig bisect-step. */
#ifndef RIG_CLI_BISECT_H
#define RIG_CLI_BISECT_H

/* rig bisect-sim [--commits N] [--p P] [--q Q] [--trials T] [--seed S] [--confidence C]
 *                [--max-cycles M] [--max-tries N] [--detect-cycles D]
 * Simulated bisections: flake-aware search vs repeat-N (ktest BISECT_TRIES). Without --commits
 * or --p, a table over commits {64,256,1024,4096} x p {0.1,0.3,0.5,1.0}. Exit 0, 2 on usage. */
int cmd_bisect_sim(int argc, char **argv);

/* rig bisect-step [--timeout SECONDS] -- COMMAND [ARGS...]
 * Runs COMMAND (a rig run of the plan) and exits 0 good, 1 bad, 125 skip for git bisect run. */
int cmd_bisect_step(int argc, char **argv);

/* rig bisect --board B --plan P --kernel-src TREE --good REV --bad REV [options]
 * Builds, boots and cycles candidates until one commit holds the confidence (rig bisect --help).
 * Exit 0 an answer, 1 inconclusive, 2 usage, 3 infrastructure. */
int cmd_bisect(int argc, char **argv);

#endif
