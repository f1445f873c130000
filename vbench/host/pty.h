/* The ptys through which the bench VM's serial ports reach vbench-host. */
#ifndef VBENCH_PTY_H
#define VBENCH_PTY_H

/* A pty whose slave path is linked at link_path (for QEMU's -chardev serial,path=): the master
 * (non-blocking) for us, and the slave kept open and raw, so the master never reads EIO while
 * the bench's QEMU is not there and nothing echoes before QEMU sets the line up.  0 or -1. */
int pty_open_linked(const char *link_path, int *master, int *slave);

#endif
