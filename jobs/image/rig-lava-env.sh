# Sourced by the QEMU board's console shell under LAVA (`rdinit=/bin/sh ENV=/etc/rig-lava.sh` on the
# kernel command line; `rig lava render` adds this file to the initramfs as a LAVA overlay).
# It runs the board's own /init up to, not including, its agent loop: virtual filesystems,
# hibernation resume (or noresume), filesystems, swap. Then the shell prompt is LAVA's.
unset ENV
if [ ! -e /run/rig/lava-setup-done ]; then
    sed '/^while :; do/,$d' /init >/tmp/rig-init-setup
    . /tmp/rig-init-setup
    : >/run/rig/lava-setup-done
    cd /
fi
PS1='rig-lava# '        # the prompt the jobs' boot actions wait for (rig/lava/render.c PROMPT)
