# rcutorture: `make run` builds and runs a short torture, `make check` tests.
# Dependencies come from Debian packages; ci/deps installs missing ones.

PREFIX ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0

CC ?= cc
BUILD ?= build
CFLAGS ?= -O2 -g
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes -Werror=implicit-function-declaration
ALL_CFLAGS := -std=gnu11 $(WARN) -Iinclude -pthread -MMD -MP -DRCUT_VERSION='"$(VERSION)"' $(CFLAGS) $(EXTRA_CFLAGS)
LIBS := -lurcu-memb -lurcu-mb -lurcu-signal -lurcu-qsbr -lurcu-bp -lurcu-common -lhwloc -lunwind -lm -pthread
TEST_LIBS := -lcmocka

SRCS := $(wildcard cmd/*.c torture/*.c flavors/*.c report/*.c)
LIB_SRCS := $(filter-out cmd/main.c,$(SRCS))
UNIT_SRCS := $(wildcard ci/unit/*.c)

OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
BENCH_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard ci/bench/*.c))
BENCH_LOOP := $(BUILD)/bench/urcu_loop
UNIT_BINS := $(UNIT_SRCS:ci/unit/%.c=$(BUILD)/unit/%)
BIN := rcutorture

ifeq ($(BUILD),build)
OUT := $(BIN)
else
OUT := $(BUILD)/$(BIN)
endif

.PHONY: all unit run check deps install uninstall format clean bench fuzz

all: $(OUT)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(FILE_CFLAGS) -c $< -o $@

$(BUILD)/librcut.a: $(OBJS)
	@$(AR) rcs $@ $^

$(OUT): $(BUILD)/cmd/main.o $(BUILD)/librcut.a
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/unit/%: ci/unit/%.c $(BUILD)/librcut.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

unit: $(UNIT_BINS)

# liburcu 0.13.2's inlined urcu-bp read side accesses its 128-byte-aligned
# reader struct at a misaligned address (fixed upstream in 0.13.4): keep
# UBSan's alignment check away from that one adapter, nowhere else.
ifneq ($(findstring undefined,$(EXTRA_CFLAGS)),)
$(BUILD)/flavors/bp.o: FILE_CFLAGS := -fno-sanitize=alignment
endif

# liburcu's benchmark loop re-implemented (ci/bench/urcu_loop.h), for bench.
BENCH_LIBS := -lurcu-memb -lurcu-mb -lurcu-signal -lurcu-qsbr -lurcu-bp -lurcu-common -pthread
ifneq ($(findstring undefined,$(EXTRA_CFLAGS)),)
$(BUILD)/ci/bench/urcu_loop_bp.o: FILE_CFLAGS := -fno-sanitize=alignment
endif
$(BENCH_LOOP): $(BENCH_OBJS)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(BENCH_LIBS)

# Every liburcu flavor side by side: rcutorture's rates against the loop's,
# grace-period latency and updater CPU (--test scale), read-side cost
# (--test ref); then SVG plots (gnuplot-nox and jq, installed when root).
bench: all $(BENCH_LOOP)
	ci/bench/run --bin ./$(OUT) --loop $(BENCH_LOOP) --out $(BUILD)/bench
	ci/bench/plot --in $(BUILD)/bench/bench.json --out $(BUILD)/bench

# libFuzzer target for the option, duration and parameter parsers (clang).
FUZZ_BIN := build-fuzz/fuzz_options
FUZZ_TIME ?= 1800
FUZZ_FLAGS := -std=gnu11 -Iinclude -pthread -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

$(FUZZ_BIN): ci/fuzz/fuzz_options.c $(LIB_SRCS) $(wildcard */*.h include/rcutorture/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@clang $(FUZZ_FLAGS) -o $@ ci/fuzz/fuzz_options.c $(LIB_SRCS) $(LIBS)

# A long fuzzing session: FUZZ_TIME seconds (default 30 minutes); new
# crashes land in build-fuzz/ and belong in ci/fuzz/regressions/.
fuzz: deps $(FUZZ_BIN)
	@mkdir -p build-fuzz/corpus
	cp ci/fuzz/corpus/* build-fuzz/corpus/
	cd build-fuzz && ./fuzz_options -max_total_time=$(FUZZ_TIME) -timeout=5 corpus ../ci/fuzz/corpus ../ci/fuzz/regressions

deps:
	@ci/deps

run: deps
	$(MAKE) all
	./$(BIN) --duration 10s --stat-interval 5s

# The whole suite: unit tests, integration tests against the normal build,
# and the integration tests again against an ASan+UBSan build.
check: deps
	@$(MAKE) --no-print-directory all unit
	@$(MAKE) --no-print-directory BUILD=build-san EXTRA_CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' all
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	ci/run-tests --bin ./$(BIN) --san-bin build-san/$(BIN) --unit-dir $(BUILD)/unit --fuzz-bin $(FUZZ_BIN)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/include/rcutorture
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)
	install -m 644 man/rcutorture.1 $(DESTDIR)$(PREFIX)/share/man/man1/rcutorture.1
	install -m 644 include/rcutorture/flavor.h $(DESTDIR)$(PREFIX)/include/rcutorture/flavor.h

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(BIN) $(DESTDIR)$(PREFIX)/share/man/man1/rcutorture.1
	rm -f $(DESTDIR)$(PREFIX)/include/rcutorture/flavor.h
	-rmdir $(DESTDIR)$(PREFIX)/include/rcutorture

format:
	clang-format -i $(SRCS) $(UNIT_SRCS) $(wildcard */*.h ci/bench/*.[ch] include/rcutorture/*.h)

clean:
	rm -rf build build-san build-fuzz $(BIN)

-include $(OBJS:.o=.d) $(BUILD)/cmd/main.d $(BENCH_OBJS:.o=.d)
