# Sourced by tests/kernel/{boot,series}.sh: $kthread_flags, a command for `rig boot --exec` that
# prints one line per filesystem kernel thread on the board, "kthread=COMM flags=F nofreeze=0|1":
# F is the task's flags (field 9 of /proc/PID/stat) and nofreeze its PF_NOFREEZE bit (0x8000),
# which set_freezable() clears. jbd2 is listed for information (no series changes it).
# shellcheck disable=SC2016  # expanded on the board, not here
kthread_flags='for d in /proc/[0-9]*; do c=$(cat $d/comm 2>/dev/null); case "$c" in ext4lazyinit|xfsaild*|kmmpd*|btrfs-cleaner|btrfs-transacti*|jbd2*) f=$(sed "s/.*) //" $d/stat | cut -d" " -f7); echo "kthread=$c flags=$f nofreeze=$(( (f >> 15) & 1 ))";; esac; done'
