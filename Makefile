# suspend-rig — top-level Makefile (GNU make).
#
#   make deps     install the Debian packages the project needs (root; idempotent)
#   make kernel   build the kernel under test            (kernel/README.md)
#   make kernel KERNEL=NAME  the same kernel plus the series kernel/series/NAME/ (out/kernel-NAME)
#   make kernel-faults  the same kernel with the fault-injection series (negative controls)
#   make image    build the QEMU board's initramfs        (image/README.md)
#   make image-debian  the Debian board's disks (mmdebstrap trixie, systemd; image/debian/README.md)
#   make rig      build out/bin/rig and the workloads
#   make run      the main job: plans/nightly.yaml on boards/qemu.yaml (installs packages and
#                 builds what is missing; 110 cycles, about 110 min; RUN_ARGS="--cycles 1": 11, ~11 min)
#   make dashboard  write the pass/fail site from out/results.db to out/dashboard
#   make check    run every test (units under ASan+UBSan, the fuzz smoke run, then end-to-end on the QEMU board;
#                 installs missing packages first, like make run)
#   make check-bisect  end-to-end rig bisect of a flaky resume hang on the QEMU board
#   make check-netboot the QEMU board PXE-booted from the tftp deploy's root (identity, stale root)
#   make check-gpiod2  the GPIO backend built and unit-tested against libgpiod 2.x
#   make check-debian  end-to-end on the Debian board (systemd, journald, systemctl suspend)
#   make check-volatile  power cuts on drives with volatile write caches (nbdkit; boards/qemu-volatile.yaml)
#   make check-meta    the metadata writer (workloads: [meta]) through power cuts, knob 1 and knob 0
#   make check-hibernate-modes  each hibernation mode (/sys/power/disk) and hibernate-mode's controls
#   make lava-lab      a local LAVA lab (lava-server, PostgreSQL, worker, the QEMU board; root)
#   make lava-lab-down stop it
#   make check-lava-lab  the lab end to end: submit, wait, import by REST, dashboard
#   make check-vbench  rig on the virtual bench: a real UART and gpio-sim lines wired to the QEMU board
#   make bench-lab     start the virtual bench and the board wired to it, with a shell on the bench
#   make bench    benchmarks (build times, boot time); timing never fails a test
#   make fuzz     the libFuzzer harnesses (tests/fuzz/README.md; clang)
#   make fuzz-smoke  each harness for 20 s from corpora seeded from the test data (< 3 min)
#   make clean    remove build products (keeps downloaded sources and ccache)

SHELL := /bin/bash
.DEFAULT_GOAL := help
# `make run` and `make check` need the packages before anything else is read (pkg-config below
# picks the GPIO backend): scripts/deps.sh --check installs what is missing as root, or stops at
# once naming the packages and the command. Sub-makes inherit the answer.
ifneq ($(filter run check,$(MAKECMDGOALS)),)
ifndef RIG_DEPS_CHECKED
ifneq ($(shell bash scripts/deps.sh --check >&2; echo $$?),0)
$(error packages missing (see above))
endif
export RIG_DEPS_CHECKED := 1
endif
endif
comma := ,
OUT ?= $(CURDIR)/out
export OUT

CC ?= gcc
PKGS := libserialport libgpiod yaml-0.1 jansson sqlite3 libcurl
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
CFLAGS ?= -O2 -g
RIG_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
RIG_CFLAGS := -std=c11 -D_GNU_SOURCE -DRIG_VERSION='"$(RIG_VERSION)"' $(WARN) -Irig -Iworkloads -I. $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
RIG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
# libgpiod 1.6 (bookworm) and 2.x (trixie) have different APIs: the power backend is compiled for
# the one pkg-config finds (`make check-gpiod2` points PKG_CONFIG_PATH at a 2.x).  A library
# outside the system's directories is found at run time through an rpath.
GPIOD_VERSION := $(shell pkg-config --modversion libgpiod 2>/dev/null)
GPIOD_UNUSED_SRC := rig/power/gpio_libgpiod_$(if $(filter 1.%,$(GPIOD_VERSION)),v2,v1).c
GPIOD_LIBDIR := $(shell pkg-config --variable=libdir libgpiod 2>/dev/null)
RIG_LIBS += $(if $(filter /usr/lib /usr/lib/% /lib/%,$(GPIOD_LIBDIR)),,$(if $(GPIOD_LIBDIR),-Wl$(comma)-rpath$(comma)$(GPIOD_LIBDIR)))
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Every .c under rig/ and dashboards/ except main.c and tests/ is library code; each
# <module>/tests/**/test_*.c is one cmocka program linked against the sanitized library.
RIG_LIB_SRC := $(filter-out rig/main.c rig/tests/% dashboards/tests/% $(GPIOD_UNUSED_SRC),$(shell find rig dashboards -name '*.c' 2>/dev/null | sort))
RIG_LIB_OBJ := $(RIG_LIB_SRC:%.c=$(OUT)/obj/%.o)
RIG_SAN_OBJ := $(RIG_LIB_SRC:%.c=$(OUT)/obj-san/%.o)
UNIT_SRC := $(sort $(wildcard rig/tests/unit/test_*.c workloads/tests/test_*.c dashboards/tests/test_*.c))
UNIT_BIN := $(patsubst %.c,$(OUT)/tests/%,$(notdir $(UNIT_SRC)))
WL_LIB_SRC := $(filter-out %/main-%.c,$(wildcard workloads/lib/*.c))
WL_PROGS := $(patsubst workloads/main-%.c,$(OUT)/bin/%,$(wildcard workloads/main-*.c))

.PHONY: help deps kernel kernel-faults image image-debian rig run dashboard check check-netboot check-lava check-units check-gpiod2 gpiod2 vbench check-vbench bench-lab check-kernel check-e2e check-debian check-volatile check-meta check-hibernate-modes check-bisect bench clean lava-lab lava-lab-down check-lava-lab
help:
	@sed -n '3,31p' Makefile | sed 's/^# //'

deps:
	bash scripts/deps.sh

# make kernel KERNEL=<name>: the same kernel with the series kernel/series/<name>/ (its README says
# what it is), linked as out/kernel-<name> (boot it with rig run --kernel out/kernel-<name>).
# KERNEL and MAKEFLAGS (which carries KERNEL=<name>) are kept from the kernel's own make.
kernel:
ifeq ($(KERNEL),)
	kernel/build.sh
else
	@[ -f kernel/series/$(KERNEL)/series ] || { echo "make kernel: no series kernel/series/$(KERNEL)/ (have: $$(ls kernel/series | tr '\n' ' '))" >&2; exit 2; }
	env -u KERNEL MAKEFLAGS= SERIES=kernel/series/$(KERNEL) KERNEL_LINK=kernel-$(KERNEL) kernel/build.sh
endif

kernel-faults:
	SERIES=kernel/patches/faults KERNEL_LINK=kernel-faults kernel/build.sh

image: rig
	image/build.sh

image-debian: rig
	image/debian/build.sh

rig: $(OUT)/bin/rig $(WL_PROGS)

$(OUT)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(RIG_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(OUT)/obj-san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(RIG_CFLAGS) $(SAN_FLAGS) -MMD -MP -c $< -o $@

$(OUT)/lib/librig.a: $(RIG_LIB_OBJ) $(WL_LIB_SRC:%.c=$(OUT)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(OUT)/lib/librig-san.a: $(RIG_SAN_OBJ) $(WL_LIB_SRC:%.c=$(OUT)/obj-san/%.o)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(OUT)/bin/rig: $(OUT)/obj/rig/main.o $(OUT)/lib/librig.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(RIG_LIBS)

# Workload programs run on the board: linked statically so the image needs no extra libraries.
$(OUT)/bin/%: $(OUT)/obj/workloads/main-%.o $(WL_LIB_SRC:%.c=$(OUT)/obj/%.o)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^

# The virtual bench (vbench/README.md): vbench-host runs on this machine, vbench-wire (static)
# inside the bench VM. Neither is part of rig.
VBENCH_HOST_SRC := $(sort $(wildcard vbench/host/*.c))
VBENCH_LIB_SRC := $(filter-out vbench/host/main.c,$(VBENCH_HOST_SRC))
VBENCH_UNIT_SRC := $(sort $(wildcard vbench/tests/test_*.c))
VBENCH_UNIT_BIN := $(patsubst %.c,$(OUT)/tests/%,$(notdir $(VBENCH_UNIT_SRC)))
$(OUT)/vbench/bin/vbench-host: $(VBENCH_HOST_SRC:%.c=$(OUT)/obj/%.o) $(OUT)/lib/librig.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(RIG_LIBS)
$(OUT)/vbench/bin/vbench-wire: $(OUT)/obj/vbench/bench/wire.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^
$(OUT)/tests/test_%: $(OUT)/obj-san/vbench/tests/test_%.o $(VBENCH_LIB_SRC:%.c=$(OUT)/obj-san/%.o) $(OUT)/lib/librig-san.a
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) -o $@ $^ $(RIG_LIBS) -lcmocka

define unit_rule
$(OUT)/tests/$(notdir $(1:.c=)): $(OUT)/obj-san/$(1:.c=.o) $(OUT)/lib/librig-san.a
	@mkdir -p $$(@D)
	$$(CC) $(SAN_FLAGS) -o $$@ $$^ $(RIG_LIBS) -lcmocka
endef
$(foreach t,$(UNIT_SRC),$(eval $(call unit_rule,$(t))))

run: rig kernel image
	@out/bin/rig run --board qemu --plan nightly $(RUN_ARGS); status=$$?; \
	out/bin/rig dashboard --db $(OUT)/results.db --out $(OUT)/dashboard >/dev/null && \
	echo "dashboard: $(OUT)/dashboard/index.html"; exit $$status

dashboard: rig
	out/bin/rig dashboard --db $(OUT)/results.db --out $(OUT)/dashboard
	@echo "dashboard: $(OUT)/dashboard/index.html"

# A real lava-run of the short job (one suspend, one power cut while suspended, verify after
# LAVA's second boot) on the QEMU board, imported with rig lava import (~1 min).
check-lava: rig kernel image kernel-faults
	RIG=out/bin/rig RIG_LAVA_RUN=1 bash tests/lava/run.sh

lava-lab: rig
	bash jobs/lava-lab.sh up

lava-lab-down:
	bash jobs/lava-lab.sh down

# A real LAVA lab on this host: the nightly script submits the short job while `rig boot` holds
# the board, follows it, imports it by REST, writes the dashboard; a job whose kernel does not
# boot is imported as a failure. Not part of `make check`: about 6 min warm, 8 with the
# packages to install (estimated from its parts; see jobs/README.md).
check-lava-lab: rig kernel image
	RIG=out/bin/rig bash tests/lava/lava-lab-e2e.sh

# fuzz-smoke: every libFuzzer harness for 20 s (tests/fuzz/README.md), about 3 min with its build.
# check-debian: the Debian board on the same kernel, 8 min 31 s measured (13 checks) plus its image
# (about 4 min cold, 1 min with the Debian base cached).
# check-vbench: rig on the virtual bench (a real 8250 UART and gpio-sim lines), 44 checks in 6 min 20 s
# measured; the bench boots the boards' kernel (out/kernel), so it adds no kernel build.
# check-bisect is not in make check: it took 1338 s of a measured 83 min (2026-12-07; a flaky
# hang is bisected, so its length varies with the draw: 9 steps and 36 cycles that time), which
# left CI's 90 minutes no margin. .ci/run runs it after make check when the time is there.
check: check-units check-gpiod2 fuzz-smoke check-kernel check-e2e check-lava check-netboot check-debian check-vbench

# The GPIO backend built against libgpiod 2.x (Debian trixie's, unpacked into the cache by
# scripts/libgpiod2.sh, never installed): rig and the GPIO unit programs in $(OUT)/gpiod2.
GPIOD2_UNITS := $(addprefix $(OUT)/gpiod2/tests/,test_gpio_libgpiod test_power_gpiod)
gpiod2:
	pc=$$(bash scripts/libgpiod2.sh) && PKG_CONFIG_PATH=$$pc $(MAKE) --no-print-directory \
	    OUT=$(OUT)/gpiod2 $(OUT)/gpiod2/bin/rig $(GPIOD2_UNITS)
check-gpiod2: gpiod2
	bash tests/run-units.sh $(GPIOD2_UNITS)

# The virtual bench (vbench/README.md): its kernel and initramfs (with rig on libgpiod 1.6 and
# 2.x), the host side, and the scenarios that run rig inside it against the QEMU board.
vbench: rig gpiod2 $(OUT)/tests/test_gpio_libgpiod $(OUT)/vbench/bin/vbench-host $(OUT)/vbench/bin/vbench-wire
	vbench/build.sh
check-vbench: vbench kernel image
	bash tests/vbench/run.sh
bench-lab: vbench kernel image
	bash vbench/lab.sh

check-units: $(UNIT_BIN) $(VBENCH_UNIT_BIN)
	@bash tests/run-units.sh $(UNIT_BIN) $(VBENCH_UNIT_BIN)
	bash tests/kernel/test-scripts.sh
	bash workloads/tests/fio-jobs.sh
	bash tests/lint/check-conditions.sh --self-test
	bash tests/lint/check-conditions.sh
	bash workloads/tests/rig-dut-journald.sh
	bash workloads/tests/rig-dut-names.sh
	bash workloads/tests/rig-dut-trace-read.sh
	bash workloads/tests/rig-dut-timeline.sh
	bash workloads/tests/rig-dut-wake.sh
	bash workloads/tests/rig-dut-hibernate.sh
	$(MAKE) rig
	bash rig/tests/cli/commands.sh
	bash rig/tests/cli/quoting.sh
	RIG=out/bin/rig bash rig/tests/cli/git-bisect-run.sh
	RIG=out/bin/rig bash rig/tests/cli/bisect-history.sh
	bash rig/tests/cli/readers.sh
	bash rig/tests/cli/stale.sh
	RIG=out/bin/rig bash tests/lava/rest.sh
	RIG=out/bin/rig bash tests/lock/run.sh
	RIG=out/bin/rig bash tests/lock/users.sh
	RIG=out/bin/rig bash tests/lock/resources.sh
	bash dashboards/tests/browser.sh

check-kernel: kernel image
	bash tests/kernel/boot.sh
	$(MAKE) kernel KERNEL=kthread-freezer-removal   # through ccache: the patched files and their dependents
	bash tests/kernel/series.sh kthread-freezer-removal
	RIG=out/bin/rig bash tests/lava/run.sh   # lava-run --validate needs the kernel and image

check-e2e: rig kernel image kernel-faults
	bash tests/e2e/run.sh
	bash tests/e2e/identity.sh   # the kernel judged is the kernel deployed; a stale one is exit 3

check-bisect: rig kernel image
	bash tests/bisect/run.sh

# The QEMU board booted by iPXE from the tftp deploy's root (boards/qemu-netboot.yaml): the smoke
# plan, a noresume boot, a stale TFTP root caught by the identity check (exit 3), two kernels
# deployed in turn and each verified.
check-netboot: rig kernel kernel-faults image
	bash tests/e2e/netboot.sh

# The Debian board: boot, systemctl suspend + power cut with journald (positive control), the
# same power cut with knob 0 and no sync (negative control).
check-debian: rig kernel image-debian
	bash tests/e2e-debian/run.sh

check-volatile: rig kernel image
	bash tests/e2e/volatile.sh

check-meta: rig kernel image
	bash tests/e2e/meta.sh

# One hibernation per /sys/power/disk mode on the QEMU board, the hybrid sleep's two negative
# controls and a mode the kernel does not offer (tests/e2e/hibernate-modes.sh; plans/README.md):
# 28 checks, 5 min 22 s measured (3 boots, 10 cycles).
check-hibernate-modes: rig kernel image
	bash tests/e2e/hibernate-modes.sh

bench:
	bash bench/run.sh

include tests/fuzz/fuzz.mk

clean:
	rm -rf $(OUT)/obj $(OUT)/obj-san $(OUT)/obj-fuzz $(OUT)/fuzz $(OUT)/lib $(OUT)/bin $(OUT)/tests $(OUT)/build $(OUT)/image $(OUT)/image-debian

-include $(shell find $(OUT)/obj $(OUT)/obj-san $(OUT)/obj-fuzz -name '*.d' 2>/dev/null)
