# Fuzz harnesses (tests/fuzz/README.md), included by the top-level Makefile.
#   make fuzz        build one libFuzzer program per harness in $(OUT)/fuzz (clang)
#   make fuzz-smoke  run each for FUZZ_SECONDS (20) from corpora seeded out of the test data
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 20
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(OUT)/fuzz/%,$(FUZZ_SRC))
FUZZ_LIB_OBJ := $(RIG_LIB_SRC:%.c=$(OUT)/obj-fuzz/%.o) $(WL_LIB_SRC:%.c=$(OUT)/obj-fuzz/%.o)

# Kept after linking (make would delete them as intermediate and rebuild them every time).
.SECONDARY: $(FUZZ_SRC:%.c=$(OUT)/obj-fuzz/%.o)

$(OUT)/obj-fuzz/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(RIG_CFLAGS) $(FUZZ_FLAGS) -MMD -MP -c $< -o $@
$(OUT)/lib/librig-fuzz.a: $(FUZZ_LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(OUT)/fuzz/%: $(OUT)/obj-fuzz/tests/fuzz/%.o $(OUT)/lib/librig-fuzz.a
	@mkdir -p $(@D)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(RIG_LIBS)

# The negative control: a harness with a planted heap overflow that the smoke run must fail on.
$(OUT)/fuzz/control/fuzz_control_crash: tests/fuzz/control/fuzz_control_crash.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(RIG_CFLAGS) -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $<

.PHONY: fuzz fuzz-smoke
fuzz: $(FUZZ_BIN)
fuzz-smoke: fuzz $(OUT)/fuzz/control/fuzz_control_crash
	FUZZ_SECONDS=5 bash tests/fuzz/smoke.sh --expect-crash $(OUT)/fuzz/control/fuzz_control_crash
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/smoke.sh $(FUZZ_BIN)
