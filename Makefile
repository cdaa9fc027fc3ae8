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
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSONC_LIBS := $(or $(shell pkg-config --libs json-c 2>/dev/null),-ljson-c)
# Where --scenario NAME looks besides $$RCUTORTURE_SCENARIO_DIR
# (cmd/scenario.c): the binary built here, in the source tree's
# ci/scenarios; the one make install copies ($(BUILD)/install/, below), in
# PREFIX/share/rcutorture/scenarios.  The unit tests find man/ here too.
SRC_DIR_CFLAGS := -DRCUT_SOURCE_DIR='"$(CURDIR)"'
# Stall backtraces give file:line with elfutils libdw (libdw-dev, which
# ci/deps installs); without it they give names only, and the build works.
LIBDW := $(shell pkg-config --exists libdw 2>/dev/null && echo yes)
LIBDW_CFLAGS := $(if $(LIBDW),-DRCUT_HAVE_LIBDW $(shell pkg-config --cflags libdw))
LIBDW_LIBS := $(if $(LIBDW),$(shell pkg-config --libs libdw))
# The liburcu the liburcu flavors are built against: the one installed
# (liburcu-dev, shared libraries), or with LIBURCU_DIR=DIR another version
# (issue 46): DIR is a liburcu-dev package extracted by
# ci/liburcu-version/fetch (make liburcu-version LIBURCU=VERSION does both
# into build-liburcu-VERSION/).  Its headers come first and its static
# libraries are linked in: the shared ones of newer Debian suites need a
# newer glibc, and their static ones only miss C23's __isoc23_strtol and
# __isoc23_strtoul (flavors/urcu/glibc_isoc23.c).  A version without
# urcu-signal (0.15 on) leaves that flavor out.  The instrumented -sb
# plugins are built against DIR's headers too; a static library cannot go
# into a plugin (its TLS relocations are the executable's kind), so the
# binary exports the library's symbols (flavors/urcu/static_liburcu.dynlist)
# and the plugins use the copy linked into it.  The version shows in
# --list-flavors and on the run's flavor line.
ifeq ($(LIBURCU_DIR),)
URCU_LIBS := -lurcu-memb -lurcu-mb -lurcu-signal -lurcu-qsbr -lurcu-bp -lurcu-common
LIBURCU_VERSION := $(or $(shell dpkg-query -W -f='$${Version}' liburcu-dev 2>/dev/null),$(shell pkg-config --modversion liburcu 2>/dev/null),unknown)
URCU_DEFS := -DRCUT_LIBURCU='"liburcu $(LIBURCU_VERSION)"'
else
LU_LIBDIR := $(LIBURCU_DIR)/usr/lib/$(shell $(CC) -dumpmachine)
LU_SIGNAL := $(wildcard $(LU_LIBDIR)/liburcu-signal.a)
LIBURCU_VERSION := $(shell cat $(LIBURCU_DIR)/version 2>/dev/null)
# The static libraries copied with their lock, sleep and syscall calls
# renamed, to go through rcut_lib_hooks (flavors/urcu/static_liburcu.c).
LU_HOOKED := syscall poll pthread_mutex_lock pthread_mutex_unlock pthread_cond_wait pthread_cond_broadcast
LU_STATIC_LIBS := $(foreach f,memb mb $(if $(LU_SIGNAL),signal) qsbr bp common,$(BUILD)/liburcu-static/liburcu-$(f).a)
URCU_LIBS := -Wl,-u,__isoc23_strtol,-u,__isoc23_strtoul,-u,rcut_lib_hooks $(LU_STATIC_LIBS)
URCU_DEFS := -DRCUT_LIBURCU='"liburcu $(LIBURCU_VERSION) (static)"' \
	$(if $(LU_SIGNAL),,-DRCUT_URCU_SIGNAL_ABSENT='"liburcu $(LIBURCU_VERSION) has no urcu-signal"')
URCU_CFLAGS := -I$(LIBURCU_DIR)/usr/include/$(shell $(CC) -dumpmachine) -I$(LIBURCU_DIR)/usr/include
URCU_EXPORT_LDFLAGS := -Wl,--dynamic-list=flavors/urcu/static_liburcu.dynlist
endif
# liburcu 0.13.3 on joins the worker call_rcu_data_free() stops (upstream
# caefd1e); before, the adapter joins it (flavors/urcu/urcu_adapter.h).
URCU_JOIN := $(if $(shell dpkg --compare-versions '$(LIBURCU_VERSION)' ge 0.13.3 2>/dev/null && echo y),-DRCUT_LIBURCU_JOINS_WORKER)
URCU_CFLAGS += $(URCU_JOIN)
# Unwind tables in every object, even when CFLAGS drops -g: the stall
# watchdog's backtraces walk the stack with them.
ALL_CFLAGS := -std=gnu11 $(WARN) -Iinclude -pthread -MMD -MP -fasynchronous-unwind-tables -DRCUT_VERSION='"$(VERSION)"' $(URCU_CFLAGS) $(JSONC_CFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
LIBS = $(EXT_LIBS) $(URCU_LIBS) -lhwloc -lunwind $(LIBDW_LIBS) $(JSONC_LIBS) -ldl -lm -pthread

# Plugins call rcut_current_cpu(), rcut_nr_cpus() and the race points
# (rcut_race_delay(), rcut_race_enabled): export just those.
EXPORT_LDFLAGS := -Wl,--dynamic-list=flavors/plugin.dynlist $(URCU_EXPORT_LDFLAGS)
TEST_LIBS := -lcmocka

# Optional libraries, a flavor each (issue 16): Concurrency Kit's epoch
# (built in), DPDK's QSBR (built in) and libcds's URCU (C++ plugins in
# $(BUILD)/lib).  Each is probed by building ci/probes/*; a library that is
# missing leaves its flavor out, and --list-flavors says why.  NO_CK=1,
# NO_DPDK=1 or NO_CDS=1 pretend that one is missing.
CXX ?= c++
DPDK_CFLAGS := -I/usr/include/dpdk -I/usr/include/$(shell $(CC) -dumpmachine 2>/dev/null)/dpdk -include rte_config.h
DPDK_LIBS := -lrte_rcu -lrte_eal
HAVE_CK := $(if $(NO_CK),,$(shell $(CC) ci/probes/ck.c -lck -o /dev/null 2>/dev/null && echo 1))
HAVE_DPDK := $(if $(NO_DPDK),,$(shell $(CC) $(DPDK_CFLAGS) ci/probes/dpdk.c $(DPDK_LIBS) -o /dev/null 2>/dev/null && echo 1))
HAVE_CDS := $(if $(NO_CDS),,$(shell $(CXX) -std=c++14 ci/probes/cds.cc -lcds -pthread -o /dev/null 2>/dev/null && echo 1))
why = $(if $($(1)),$(1)=1 given to make,$(2) not found at build time: apt-get install $(3) and rebuild)
EXT_DEFS := $(URCU_DEFS) $(if $(HAVE_CK),-DRCUT_HAVE_CK,-DRCUT_CK_ABSENT='"$(call why,NO_CK,<ck_epoch.h> or libck,libck-dev)"') \
	$(if $(HAVE_DPDK),-DRCUT_HAVE_DPDK,-DRCUT_DPDK_ABSENT='"$(call why,NO_DPDK,<rte_rcu_qsbr.h> or librte_rcu,libdpdk-dev)"') \
	$(if $(HAVE_CDS),-DRCUT_HAVE_CDS,-DRCUT_CDS_ABSENT='"$(call why,NO_CDS,libcds,libcds-dev)"')
EXT_SRCS := $(if $(HAVE_CK),flavors/ext/ck_epoch.c) $(if $(HAVE_DPDK),flavors/ext/dpdk_qsbr.c)
EXT_LIBS := $(if $(HAVE_CK),-lck) $(if $(HAVE_DPDK),$(DPDK_LIBS))
EXT_STAMP := $(BUILD)/ext-config
CDS_NAMES := instant buffered signal
CDS_PLUGINS := $(if $(HAVE_CDS),$(CDS_NAMES:%=$(BUILD)/lib/librcutorture-cds-%.so))

# The layers, top down (docs/architecture.md; ci/check-layers checks them).
URCU_OUT := $(if $(LIBURCU_DIR),$(if $(LU_SIGNAL),,flavors/urcu/signal.c),flavors/urcu/glibc_isoc23.c flavors/urcu/static_liburcu.c)
SRCS := $(filter-out flavors/ext/% $(URCU_OUT),$(wildcard cmd/*.c torture/*/*.c flavors/*.c flavors/*/*.c report/*.c)) $(EXT_SRCS)
HDRS := $(wildcard cmd/*.h torture/*/*.h flavors/*.h flavors/*/*.h report/*.h include/rcutorture/*.h)
LIB_SRCS := $(filter-out cmd/main.c,$(SRCS))
UNIT_SRCS := $(wildcard ci/unit/*.c)

OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
BENCH_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard ci/bench/*.c))
BENCH_LOOP := $(BUILD)/bench/urcu_loop
UNIT_BINS := $(UNIT_SRCS:ci/unit/%.c=$(BUILD)/unit/%)
BIN := rcutorture
INSTALL_BIN := $(BUILD)/install/$(BIN)
PREFIX_STAMP := $(BUILD)/install/prefix

ifeq ($(BUILD),build)
OUT := $(BIN)
else
OUT := $(BUILD)/$(BIN)
endif

.PHONY: all unit plugins mutants run check deps install uninstall format clean bench soak fuzz tsan tsan-parts FORCE

all: $(OUT) $(INSTALL_BIN) $(CDS_PLUGINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(ALL_CFLAGS) $(FILE_CFLAGS) -c $< -o $@

$(BUILD)/cmd/scenario.o: FILE_CFLAGS := $(SRC_DIR_CFLAGS)
$(BUILD)/report/srcline.o: FILE_CFLAGS := $(LIBDW_CFLAGS)
# Whether libdw was found: srcline.o is rebuilt when that changes.
LIBDW_STAMP := $(BUILD)/libdw-found
$(LIBDW_STAMP): FORCE
	@mkdir -p $(dir $@)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(LIBDW)' ]; then printf '%s\n' '$(LIBDW)' >$@; fi
$(BUILD)/report/srcline.o: $(LIBDW_STAMP)

# Which optional flavors this build has: the registry's absent list and
# the bundled plugins' directory (cmd/bundled.c) follow the probes; the
# stamp holds the probes' outcome so that a change rebuilds them.
$(EXT_STAMP): FORCE
	@mkdir -p $(dir $@)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(EXT_DEFS)' ]; then printf '%s\n' '$(EXT_DEFS)' >$@; fi
$(BUILD)/flavors/registry.o $(BUILD)/cmd/bundled.o $(BUILD)/install/bundled.o: $(EXT_STAMP)
$(BUILD)/flavors/registry.o: FILE_CFLAGS := $(EXT_DEFS)
$(BUILD)/cmd/bundled.o: FILE_CFLAGS := $(EXT_DEFS) -DRCUT_BUNDLED_DIR='"$(CURDIR)/$(BUILD)/lib"'
$(BUILD)/flavors/ext/dpdk_qsbr.o: FILE_CFLAGS := $(DPDK_CFLAGS)

# libcds's URCU flavors: C++ adapters against the plugin ABI, one plugin
# each (flavors/cds/), found by the binary in $(BUILD)/lib (installed in
# PREFIX/lib/rcutorture).
CDS_BASE_CXXFLAGS := -std=c++20 -Wall -Wextra -Wno-missing-field-initializers -Wshadow -Iinclude -pthread -fPIC -shared -O2 -g
CDS_CXXFLAGS := $(CDS_BASE_CXXFLAGS) $(EXTRA_CFLAGS)
$(BUILD)/lib/librcutorture-cds-%.so: flavors/cds/%.cc flavors/cds/cds_adapter.h flavors/lib_entry.h include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  CXX     $@"
	@$(CXX) $(CDS_CXXFLAGS) $(LDFLAGS) -o $@ $< -lcds

$(BUILD)/librcut.a: $(OBJS) | $(LU_STATIC_LIBS)
	@rm -f $@
	@$(AR) rcs $@ $^

$(BUILD)/liburcu-static/%.a: $(LU_LIBDIR)/%.a
	@mkdir -p $(dir $@)
	@echo "  OBJCOPY $@"
	@objcopy $(foreach f,$(LU_HOOKED),--redefine-sym $(f)=rcut_urcu_$(f)) $< $@

$(OUT): $(BUILD)/cmd/main.o $(BUILD)/librcut.a flavors/plugin.dynlist
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(EXPORT_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LIBS)

$(BUILD)/unit/%: ci/unit/%.c $(BUILD)/librcut.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(SRC_DIR_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

# The binary make install copies: cmd/scenario.c built again with PREFIX
# (never DESTDIR, which only install uses) and without the source tree,
# linked ahead of librcut.a so that the archive's scenario.o is not used.
# The stamp holds the PREFIX it was built for: a new PREFIX rebuilds it.
$(PREFIX_STAMP): FORCE
	@mkdir -p $(dir $@)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(PREFIX)' ]; then printf '%s\n' '$(PREFIX)' >$@; fi

$(BUILD)/install/scenario.o: cmd/scenario.c $(PREFIX_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $@ (PREFIX=$(PREFIX))"
	@$(CC) $(ALL_CFLAGS) -DRCUT_PREFIX='"$(PREFIX)"' -c $< -o $@

$(BUILD)/install/bundled.o: cmd/bundled.c $(PREFIX_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $@ (PREFIX=$(PREFIX))"
	@$(CC) $(ALL_CFLAGS) $(EXT_DEFS) -DRCUT_BUNDLED_DIR='"$(PREFIX)/lib/rcutorture"' -c $< -o $@

$(INSTALL_BIN): $(BUILD)/cmd/main.o $(BUILD)/install/scenario.o $(BUILD)/install/bundled.o $(BUILD)/librcut.a flavors/plugin.dynlist
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(EXPORT_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LIBS)

unit: $(UNIT_BINS)

# Flavor plugins built against include/rcutorture/flavor.h alone: the
# example (a correct RCU), the broken one (must FAIL), the example as an
# ABI version 1 table (must still load) and, for the loader's error
# tests, three bad ones from ci/plugins/bad_plugin.c.
PLUGIN_DIR := $(BUILD)/plugins
PLUGIN_CFLAGS := -std=gnu11 $(WARN) -Iinclude -pthread -fPIC -shared -O2 -g $(PLUGIN_EXTRA_CFLAGS)
PLUGINS := $(PLUGIN_DIR)/librcutorture-example.so $(PLUGIN_DIR)/librcutorture-broken.so \
	$(PLUGIN_DIR)/librcutorture-example-v1.so $(PLUGIN_DIR)/librcutorture-silent-barrier.so
BAD_PLUGINS := $(patsubst %,$(PLUGIN_DIR)/bad/lib%.so,wrong_abi no_symbol missing_hooks)

plugins: $(PLUGINS) $(BAD_PLUGINS) mutants

$(PLUGIN_DIR)/librcutorture-example.so: ci/plugins/example_rcu.c include/rcutorture/flavor.h
$(PLUGIN_DIR)/librcutorture-broken.so: ci/plugins/broken_rcu.c ci/plugins/example_rcu.c include/rcutorture/flavor.h
$(PLUGIN_DIR)/librcutorture-example-v1.so: ci/plugins/example_v1.c ci/plugins/example_rcu.c include/rcutorture/flavor.h
$(PLUGIN_DIR)/librcutorture-silent-barrier.so: ci/plugins/silent_barrier_rcu.c ci/plugins/example_rcu.c include/rcutorture/flavor.h
$(PLUGINS):
	@mkdir -p $(dir $@)
	@echo "  PLUGIN  $@"
	@$(CC) $(PLUGIN_CFLAGS) -o $@ $<

$(PLUGIN_DIR)/bad/lib%.so: ci/plugins/bad_plugin.c include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  PLUGIN  $@"
	@$(CC) $(PLUGIN_CFLAGS) -DBAD_$(shell echo $* | tr a-z A-Z) -o $@ $<

# The mutant catalogue (ci/mutants/CATALOGUE): correct bases and small
# broken RCUs, each a plugin built from its base's source with its macros.
MUTANT_DIR := $(BUILD)/mutants
# Comment lines start with '#', matched as punctuation: make 4.3 passes a
# "\#" to awk as is, and gawk warns about it.
MUTANT_NAMES := $(shell awk '!/^[[:punct:]]/ && NF { print $$1 }' ci/mutants/CATALOGUE)
MUTANTS := $(MUTANT_NAMES:%=$(MUTANT_DIR)/librcutorture-mutant-%.so)

mutants: $(MUTANTS)

$(MUTANTS): $(MUTANT_DIR)/librcutorture-mutant-%.so: ci/mutants/CATALOGUE ci/mutants/compile ci/mutants/engine.h ci/mutants/flip.c ci/mutants/qsbr.c ci/mutants/nest.c include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  MUTANT  $@"
	@ci/mutants/compile $* $@ $(CC) $(PLUGIN_CFLAGS)

# The store-buffer emulation (sdk/storebuf/, include/rcutorture/storebuf.h):
# a static library that defines the ThreadSanitizer entry points, linked
# into a plugin compiled with -fsanitize=thread (STOREBUF_CFLAGS) with the
# libc wrappers of STOREBUF_LDFLAGS.  Every catalogue entry is built a
# second time that way: librcutorture-mutant-NAME-sb.so.
STOREBUF_LIB := $(BUILD)/sdk/librcutorture-storebuf.a
STOREBUF_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard sdk/storebuf/*.c))
STOREBUF_CFLAGS := -fsanitize=thread $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1)),,-Wno-tsan)
STOREBUF_WRAPS := syscall membarrier sigaction signal pthread_mutex_lock pthread_mutex_trylock \
	pthread_mutex_unlock pthread_spin_lock pthread_spin_trylock pthread_spin_unlock \
	pthread_rwlock_rdlock pthread_rwlock_wrlock pthread_rwlock_unlock pthread_cond_wait \
	pthread_cond_timedwait pthread_cond_signal pthread_cond_broadcast sem_post sem_wait \
	pthread_create pthread_join sched_yield nanosleep usleep poll
STOREBUF_LDFLAGS := -Wl,--undefined=rcut_storebuf_configure,--undefined=rcut_storebuf_stats,--undefined=rcut_sched_configure $(STOREBUF_WRAPS:%=-Wl,--wrap=%)
MUTANTS_SB := $(MUTANT_NAMES:%=$(MUTANT_DIR)/librcutorture-mutant-%-sb.so)

$(BUILD)/sdk/storebuf/%.o: sdk/storebuf/%.c sdk/storebuf/sb.h include/rcutorture/storebuf.h include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) -std=gnu11 $(WARN) -Iinclude -pthread -fPIC -O2 -g -fvisibility=hidden -c $< -o $@

# The unit tests drive the emulation's core directly.
$(BUILD)/unit/test_storebuf $(BUILD)/unit/test_storebuf_litmus: $(STOREBUF_LIB)

$(STOREBUF_LIB): $(STOREBUF_OBJS)
	@rm -f $@
	@$(AR) rcs $@ $^

mutants: $(MUTANTS_SB)

$(MUTANTS_SB): $(MUTANT_DIR)/librcutorture-mutant-%-sb.so: $(MUTANT_DIR)/sb/%.o $(STOREBUF_LIB)
	@echo "  MUTANT  $@"
	@$(CC) -shared -pthread -o $@ $< $(STOREBUF_LIB) $(STOREBUF_LDFLAGS)

$(MUTANT_DIR)/sb/%.o: ci/mutants/CATALOGUE ci/mutants/compile ci/mutants/engine.h ci/mutants/flip.c ci/mutants/qsbr.c ci/mutants/nest.c include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@ci/mutants/compile $* $@ $(CC) $(PLUGIN_CFLAGS) $(STOREBUF_CFLAGS) -c

# liburcu's flavors built a second time as plugins instrumented with the
# store-buffer SDK (issue 24 item 2): --flavor memb-sb runs liburcu's real
# inlined read side under the emulation and the automatic race points.
# flavors/urcu/storebuf_liburcu.h turns liburcu's asm fences into ones the
# instrumentation sees; the SDK sends liburcu's own membarrier, lock and
# sleep calls to its wrappers (sdk/storebuf/libhook.c).  In $(BUILD)/lib
# beside libcds's (PREFIX/lib/rcutorture installed).
URCU_SB_NAMES := memb mb qsbr bp
URCU_SB_PLUGINS := $(URCU_SB_NAMES:%=$(BUILD)/lib/librcutorture-%-sb.so)
# Against LIBURCU_DIR: nothing to link, the binary has the library.
URCU_SB_LIBS = $(if $(LIBURCU_DIR),,-lurcu-$* -lurcu-common)

all: $(URCU_SB_PLUGINS)

$(BUILD)/lib/urcu-sb/%.o: flavors/urcu/%.c flavors/urcu/urcu_adapter.h flavors/lib_entry.h flavors/urcu/storebuf_liburcu.h flavors/registry.h include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(PLUGIN_CFLAGS) $(STOREBUF_CFLAGS) $(URCU_CFLAGS) $(URCU_DEFS) -DRCUT_SB_PLUGIN -include flavors/urcu/storebuf_liburcu.h -c $< -o $@

$(URCU_SB_PLUGINS): $(BUILD)/lib/librcutorture-%-sb.so: $(BUILD)/lib/urcu-sb/%.o $(STOREBUF_LIB)
	@echo "  PLUGIN  $@"
	@$(CC) -shared -pthread -o $@ $< $(STOREBUF_LIB) $(STOREBUF_LDFLAGS) $(URCU_SB_LIBS) -ldl

# DPDK's QSBR and Concurrency Kit's epoch adapters built the same way
# (dpdk-qsbr-sb, ck-epoch-sb): the libraries' inlined read sides and
# checks under the emulation and the automatic race points.
# flavors/ext/storebuf_dpdk.h makes DPDK's asm full fence visible; ck
# uses its compiler-builtin port (CK_USE_CC_BUILTINS): fences and atomics
# the instrumentation sees, loads and stores volatile (plain to it, so
# race points but no buffering).
EXT_SB_PLUGINS := $(if $(HAVE_DPDK),$(BUILD)/lib/librcutorture-dpdk-qsbr-sb.so) \
	$(if $(HAVE_CK),$(BUILD)/lib/librcutorture-ck-epoch-sb.so)

all: $(EXT_SB_PLUGINS)

$(BUILD)/lib/ext-sb/dpdk_qsbr.o: FILE_SB_CFLAGS := $(DPDK_CFLAGS) -include flavors/ext/storebuf_dpdk.h
$(BUILD)/lib/ext-sb/ck_epoch.o: FILE_SB_CFLAGS := -DCK_USE_CC_BUILTINS=1
$(BUILD)/lib/ext-sb/%.o: flavors/ext/%.c flavors/ext/handoff.h flavors/lib_entry.h flavors/ext/storebuf_dpdk.h flavors/registry.h include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(PLUGIN_CFLAGS) $(STOREBUF_CFLAGS) $(FILE_SB_CFLAGS) -DRCUT_SB_PLUGIN -c $< -o $@

$(BUILD)/lib/librcutorture-dpdk-qsbr-sb.so: $(BUILD)/lib/ext-sb/dpdk_qsbr.o $(STOREBUF_LIB)
	@echo "  PLUGIN  $@"
	@$(CC) -shared -pthread -o $@ $< $(STOREBUF_LIB) $(STOREBUF_LDFLAGS) $(DPDK_LIBS) -ldl

$(BUILD)/lib/librcutorture-ck-epoch-sb.so: $(BUILD)/lib/ext-sb/ck_epoch.o $(STOREBUF_LIB)
	@echo "  PLUGIN  $@"
	@$(CC) -shared -pthread -o $@ $< $(STOREBUF_LIB) $(STOREBUF_LDFLAGS) -lck -ldl

# libcds's URCU flavors built the same way (cds-instant-sb, cds-buffered-sb,
# cds-signal-sb): libcds's URCU is templates over std::atomic, so its read
# side and grace periods compile into the plugin, instrumented.  Compiled
# and linked apart: linking with -fsanitize=thread would pull in TSan's
# runtime, whose entry points the SDK defines itself.  -U__SANITIZE_THREAD__:
# libcds reads it as "under TSan" and then leaves out its signal URCU and
# calls TSan's annotation functions, which only the real runtime has.
CDS_SB_PLUGINS := $(if $(HAVE_CDS),$(CDS_NAMES:%=$(BUILD)/lib/librcutorture-cds-%-sb.so))

all: $(CDS_SB_PLUGINS)

$(BUILD)/lib/cds-sb/%.o: flavors/cds/%.cc flavors/cds/cds_adapter.h flavors/lib_entry.h include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  CXX     $@"
	@$(CXX) $(CDS_BASE_CXXFLAGS) $(STOREBUF_CFLAGS) -U__SANITIZE_THREAD__ -DRCUT_SB_PLUGIN -c $< -o $@

$(CDS_SB_PLUGINS): $(BUILD)/lib/librcutorture-cds-%-sb.so: $(BUILD)/lib/cds-sb/%.o $(STOREBUF_LIB)
	@echo "  PLUGIN  $@"
	@$(CXX) -shared -pthread -o $@ $< $(STOREBUF_LIB) $(STOREBUF_LDFLAGS) -lcds -ldl

# The catalogue without race points (RCUT_NO_RACE_POINTS): what a flavor
# nobody annotated gets, plain (-bare) and instrumented (-bare-sb, where
# the SDK's automatic race points are the only ones).  The mutation
# score's headline columns (docs/mutation-score.md).
MUTANTS_BARE := $(MUTANT_NAMES:%=$(MUTANT_DIR)/librcutorture-mutant-%-bare.so)
MUTANTS_BARE_SB := $(MUTANT_NAMES:%=$(MUTANT_DIR)/librcutorture-mutant-%-bare-sb.so)

mutants: $(MUTANTS_BARE) $(MUTANTS_BARE_SB)

$(MUTANTS_BARE): $(MUTANT_DIR)/librcutorture-mutant-%-bare.so: ci/mutants/CATALOGUE ci/mutants/compile ci/mutants/engine.h ci/mutants/flip.c ci/mutants/qsbr.c ci/mutants/nest.c include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@echo "  MUTANT  $@"
	@ci/mutants/compile $* $@ $(CC) $(PLUGIN_CFLAGS) -DRCUT_NO_RACE_POINTS

$(MUTANTS_BARE_SB): $(MUTANT_DIR)/librcutorture-mutant-%-bare-sb.so: $(MUTANT_DIR)/bare-sb/%.o $(STOREBUF_LIB)
	@echo "  MUTANT  $@"
	@$(CC) -shared -pthread -o $@ $< $(STOREBUF_LIB) $(STOREBUF_LDFLAGS)

$(MUTANT_DIR)/bare-sb/%.o: ci/mutants/CATALOGUE ci/mutants/compile ci/mutants/engine.h ci/mutants/flip.c ci/mutants/qsbr.c ci/mutants/nest.c include/rcutorture/flavor.h
	@mkdir -p $(dir $@)
	@ci/mutants/compile $* $@ $(CC) $(PLUGIN_CFLAGS) $(STOREBUF_CFLAGS) -DRCUT_NO_RACE_POINTS -c

# The binary built against another liburcu (LIBURCU_DIR, above): make
# liburcu-version LIBURCU=0.15.2-2 (a Debian version of liburcu-dev, or a
# suite: trixie, sid) fetches it and builds build-liburcu-VERSION/rcutorture
# with its liburcu plugins (memb-sb ... bp-sb) beside it: the others do not
# use liburcu, and building them (libcds's in C++) doubled the build.
.PHONY: liburcu-version liburcu-version-parts
liburcu-version-parts: $(OUT) $(URCU_SB_PLUGINS)

liburcu-version:
	@test -n "$(LIBURCU)" || { echo "liburcu-version: LIBURCU=VERSION (a Debian version of liburcu-dev, e.g. 0.15.2-2, or a suite: trixie, sid)" >&2; exit 2; }
	@dir=$$(ci/liburcu-version/fetch "$(LIBURCU)") || exit $$?; \
	$(MAKE) --no-print-directory BUILD=build-liburcu-$${dir##*/} LIBURCU_DIR=$$dir liburcu-version-parts && \
	echo "liburcu-version: build-liburcu-$${dir##*/}/$(BIN)"

# One variant of liburcu's source (ci/liburcu-mutants/build): its library
# of VARIANT_FLAVOR, built from VARIANT/tree without running its configure
# (ci/liburcu-mutants/config.h stands for what configure writes), and our
# adapter of that flavor against the variant's headers, plain and
# instrumented.  make liburcu-variant VARIANT=DIR VARIANT_FLAVOR=memb
LV_DEFS_memb := -DRCU_MEMBARRIER
LV_DEFS_mb := -DRCU_MB
LV_DEFS_signal := -DRCU_SIGNAL
LV_DEFS_qsbr := -DRCU_QSBR
LV_MAIN_qsbr := urcu-qsbr.c
LV_MAIN_bp := urcu-bp.c
LV_F = $(VARIANT_FLAVOR)
LV_SRCS = $(or $(LV_MAIN_$(LV_F)),urcu.c) urcu-pointer.c compat_arch.c compat_futex.c
LV_INC = -I$(VARIANT)/tree/include

# The library only (an entry whose edits leave the headers alone: the
# adapters built against the unchanged headers serve it), or both.
.PHONY: liburcu-variant liburcu-variant-lib
liburcu-variant-lib:
	@test -n "$(VARIANT)" -a -d "$(VARIANT)/tree/src" || { echo "liburcu-variant: VARIANT=DIR with DIR/tree from ci/liburcu-mutants/build" >&2; exit 2; }
	@case " $(URCU_SB_NAMES) signal " in *" $(LV_F) "*) ;; *) echo "liburcu-variant: VARIANT_FLAVOR: one of $(URCU_SB_NAMES) signal" >&2; exit 2 ;; esac
	@mkdir -p $(VARIANT)/lib
	$(CC) -O2 -g -fPIC -shared -pthread -include ci/liburcu-mutants/config.h $(LV_INC) -I$(VARIANT)/tree/src $(LV_DEFS_$(LV_F)) \
		$(LV_SRCS:%=$(VARIANT)/tree/src/%) -Wl,-z,defs -Wl,-soname,liburcu-$(LV_F).so.8 -o $(VARIANT)/lib/liburcu-$(LV_F).so.8 -lurcu-common
	ln -sf liburcu-$(LV_F).so.8 $(VARIANT)/lib/liburcu-$(LV_F).so

liburcu-variant: liburcu-variant-lib $(STOREBUF_LIB)
	@mkdir -p $(VARIANT)/plugins
	$(CC) $(PLUGIN_CFLAGS) -DRCUT_LIB_PLUGIN $(LV_INC) -shared -o $(VARIANT)/plugins/librcutorture-$(LV_F).so \
		flavors/urcu/$(LV_F).c -L$(VARIANT)/lib -lurcu-$(LV_F) -lurcu-common
	if [ "$(LV_F)" != signal ]; then \
	$(CC) $(PLUGIN_CFLAGS) $(STOREBUF_CFLAGS) -DRCUT_SB_PLUGIN -include flavors/urcu/storebuf_liburcu.h $(LV_INC) \
		-c flavors/urcu/$(LV_F).c -o $(VARIANT)/plugins/$(LV_F)-sb.o && \
	$(CC) -shared -pthread -o $(VARIANT)/plugins/librcutorture-$(LV_F)-sb.so $(VARIANT)/plugins/$(LV_F)-sb.o \
		$(STOREBUF_LIB) $(STOREBUF_LDFLAGS) -L$(VARIANT)/lib -lurcu-$(LV_F) -lurcu-common -ldl; fi

# liburcu 0.13.2's inlined urcu-bp read side accesses its 128-byte-aligned
# reader struct at a misaligned address (fixed upstream in 0.13.4): keep
# UBSan's alignment check away from that one adapter, nowhere else.
ifneq ($(findstring undefined,$(EXTRA_CFLAGS)),)
$(BUILD)/flavors/urcu/bp.o: FILE_CFLAGS := -fno-sanitize=alignment
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
# Then the mutation score (ci/bench/mutants): how fast rcutorture catches
# each broken RCU of ci/mutants/CATALOGUE, 10 seeds of at most 60 s each
# by default; MUTANTS_BENCH adds options (e.g. --seeds 3 --limit 20).
# Then the catalogue of reported RCU bugs (ci/bench/catalogue): each
# BUG-*/FIXED-* scenario pair over 10 seeds of 10 s; CATALOGUE_BENCH adds
# options (e.g. --seeds 3).  Then the mutants of liburcu's real source
# (ci/liburcu-mutants, built into $(BUILD)/liburcu-mutants from Debian's
# source package; skipped with a line saying why when it cannot be had),
# scored by ci/bench/mutants --liburcu with MUTANTS_BENCH's options too.
# Then the busted controls' speed
# (ci/bench/busted): time to the first failure of each busted flavor with
# the default options and with --hunt, side by side; BUSTED_BENCH adds
# options (e.g. --before OLD_BIN for a now/before column).  Then Debian
# 13's liburcu losing wakeups (ci/bench/liburcu-lost-wakeup, issue 46):
# qsbr-sb and mb-sb built against 0.15.2-2, 10 seeds of at most 60 s,
# and 10 minutes each on the fixed 0.15.7-1 and the default build;
# LOST_WAKEUP_BENCH adds options (e.g. --control 60); skipped with a line
# when the packages cannot be had.
MUTANTS_BENCH ?=
CATALOGUE_BENCH ?=
BUSTED_BENCH ?=
LOST_WAKEUP_BENCH ?=
bench: all $(BENCH_LOOP) mutants
	ci/bench/run --bin ./$(OUT) --loop $(BENCH_LOOP) --out $(BUILD)/bench
	ci/bench/plot --in $(BUILD)/bench/bench.json --out $(BUILD)/bench
	ci/bench/mutants --bin ./$(OUT) --dir $(MUTANT_DIR) --out $(BUILD)/bench $(MUTANTS_BENCH)
	ci/bench/catalogue --bin ./$(OUT) --out $(BUILD)/bench $(CATALOGUE_BENCH)
	ci/liburcu-mutants/build $(BUILD)/liburcu-mutants; st=$$?; \
	if [ $$st = 0 ]; then ci/bench/mutants --liburcu $(BUILD)/liburcu-mutants --bin ./$(OUT) --out $(BUILD)/bench $(MUTANTS_BENCH); \
	elif [ $$st != 77 ]; then exit $$st; fi
	ci/bench/busted --bin ./$(OUT) --out $(BUILD)/bench $(BUSTED_BENCH)
	ci/bench/liburcu-lost-wakeup --bin ./$(OUT) --out $(BUILD)/bench $(LOST_WAKEUP_BENCH); st=$$?; \
	[ $$st = 0 ] || [ $$st = 77 ] || exit $$st

# The false-positive soak (ci/bench/soak): every correct flavor, plain and
# instrumented, and the catalogue's bases, 10 minutes each under --hunt
# with 8 simulated CPUs and CPU offlining: hours, so not part of bench.
SOAK_BASES := $(foreach b,flip flip-memb qsbr nest,$(MUTANT_DIR)/librcutorture-mutant-$(b)-bare-sb.so)
soak: all mutants
	ci/bench/soak --bin ./$(OUT) --out $(BUILD)/bench $(SOAK)
	ci/bench/soak --bin ./$(OUT) --out $(BUILD)/bench/bases --flavors "$(SOAK_BASES)" $(SOAK)

# The data-race mode (issue 24 item 3; torture/core/data_race.c): the
# binary, the example plugins and the plain mutant catalogue built with
# the real ThreadSanitizer into $(TSAN_BUILD), where a race TSan reports
# inside a flavor fails the run's "data race" check.  Not the store-buffer
# SDK's builds (-sb), which define ThreadSanitizer's entry points
# themselves, nor libcds's C++ plugins (libcds is not instrumented).
TSAN_BUILD ?= build-tsan
TSAN_FLAGS := $(STOREBUF_CFLAGS) -O1 -g -fno-omit-frame-pointer
tsan:
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) EXTRA_CFLAGS='$(TSAN_FLAGS)' LDFLAGS='-fsanitize=thread' \
		PLUGIN_EXTRA_CFLAGS='$(TSAN_FLAGS)' tsan-parts
tsan-parts: $(OUT) $(PLUGINS) $(MUTANTS)

# libFuzzer target for the option, duration and parameter parsers (clang).
FUZZ_BIN := build-fuzz/fuzz_options
FUZZ_TIME ?= 1800
FUZZ_FLAGS := -std=gnu11 -Iinclude -pthread -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

$(FUZZ_BIN): ci/fuzz/fuzz_options.c $(LIB_SRCS) $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@clang $(FUZZ_FLAGS) -o $@ ci/fuzz/fuzz_options.c $(filter-out flavors/ext/%,$(LIB_SRCS)) $(LIBS)

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
# the integration tests again against an ASan+UBSan build, and the
# data-race mode's tests against the ThreadSanitizer build.  With two CPUs
# or more the builds use them all and the normal build's integration tests
# run beside the sanitizer builds' (ci/run-tests --jobs 2).  The fuzz
# target is one clang process: it builds beside the TSan build, which
# fills the other CPU.
NPROC := $(shell nproc 2>/dev/null || echo 1)
CHECK_LANES := $(if $(filter 1,$(NPROC)),1,2)
check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all unit plugins
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=build-san EXTRA_CFLAGS='$(SAN_FLAGS)' LDFLAGS='$(SAN_FLAGS)' all
	@$(MAKE) --no-print-directory -j$(NPROC) tsan $(FUZZ_BIN)
	PLUGINS=$(PLUGIN_DIR) MUTANTS=$(MUTANT_DIR) ci/run-tests --bin ./$(BIN) --san-bin build-san/$(BIN) \
		--tsan-bin $(TSAN_BUILD)/$(BIN) --unit-dir $(BUILD)/unit --fuzz-bin $(FUZZ_BIN) --jobs $(CHECK_LANES)

# The binary, its man page, the plugin ABI header with a pkg-config file
# for plugin builds, the scenario files with the campaign runner
# (bin/rcutorture-campaign, its man page and its pieces in
# share/rcutorture/campaign) and the old runner's name for it
# (bin/rcutorture-run-scenarios), the example plugin's source and the
# README (--help sends bug reports to it).
# PREFIX is where they will live, built into the binary and the .pc file;
# DESTDIR only stages them (packaging) and is in no installed file.
SHARE := $(DESTDIR)$(PREFIX)/share/rcutorture
SCENARIOS := $(filter-out %~,$(wildcard ci/scenarios/*))
# The campaign runner's pieces (bin/rcutorture-campaign sources them).
CAMPAIGN_LIBS := $(wildcard ci/campaign/*.sh)
PC_DIR := $(DESTDIR)$(PREFIX)/share/pkgconfig
DOC_DIR := $(DESTDIR)$(PREFIX)/share/doc/rcutorture

install: all $(STOREBUF_LIB)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/include/rcutorture $(PC_DIR) $(SHARE)/scenarios $(SHARE)/examples $(SHARE)/campaign
	install -m 755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)
	install -m 755 ci/run-scenarios $(DESTDIR)$(PREFIX)/bin/$(BIN)-run-scenarios
	install -m 755 ci/campaign/rcutorture-campaign $(DESTDIR)$(PREFIX)/bin/$(BIN)-campaign
	install -m 644 $(CAMPAIGN_LIBS) $(SHARE)/campaign/
	install -m 755 ci/campaign/run-job $(SHARE)/campaign/run-job
	install -m 644 man/rcutorture.1 $(DESTDIR)$(PREFIX)/share/man/man1/rcutorture.1
	install -m 644 man/rcutorture-campaign.1 $(DESTDIR)$(PREFIX)/share/man/man1/rcutorture-campaign.1
	install -m 644 include/rcutorture/flavor.h $(DESTDIR)$(PREFIX)/include/rcutorture/flavor.h
	install -m 644 include/rcutorture/storebuf.h $(DESTDIR)$(PREFIX)/include/rcutorture/storebuf.h
	install -m 644 $(STOREBUF_LIB) $(DESTDIR)$(PREFIX)/lib/librcutorture-storebuf.a
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@LDFLAGS@|$(STOREBUF_LDFLAGS)|' sdk/storebuf/rcutorture-storebuf.pc.in >$(PC_DIR)/rcutorture-storebuf.pc
	chmod 644 $(PC_DIR)/rcutorture-storebuf.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' rcutorture.pc.in >$(PC_DIR)/rcutorture.pc
	chmod 644 $(PC_DIR)/rcutorture.pc
	install -m 644 $(SCENARIOS) $(SHARE)/scenarios/
	install -m 644 ci/plugins/example_rcu.c $(SHARE)/examples/example_rcu.c
	install -d $(DESTDIR)$(PREFIX)/lib/rcutorture
	install -m 644 $(CDS_PLUGINS) $(URCU_SB_PLUGINS) $(EXT_SB_PLUGINS) $(CDS_SB_PLUGINS) $(DESTDIR)$(PREFIX)/lib/rcutorture/
	install -d $(DOC_DIR)
	install -m 644 README.md $(DOC_DIR)/README.md

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)-run-scenarios $(DESTDIR)$(PREFIX)/bin/$(BIN)-campaign
	rm -f $(addprefix $(SHARE)/campaign/,$(notdir $(CAMPAIGN_LIBS)) run-job)
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/rcutorture.1 $(DESTDIR)$(PREFIX)/share/man/man1/rcutorture-campaign.1
	rm -f $(DESTDIR)$(PREFIX)/include/rcutorture/flavor.h $(PC_DIR)/rcutorture.pc
	rm -f $(DESTDIR)$(PREFIX)/include/rcutorture/storebuf.h $(PC_DIR)/rcutorture-storebuf.pc $(DESTDIR)$(PREFIX)/lib/librcutorture-storebuf.a
	rm -f $(addprefix $(SHARE)/scenarios/,$(notdir $(SCENARIOS))) $(SHARE)/examples/example_rcu.c $(DOC_DIR)/README.md
	rm -f $(CDS_NAMES:%=$(DESTDIR)$(PREFIX)/lib/rcutorture/librcutorture-cds-%.so) $(CDS_NAMES:%=$(DESTDIR)$(PREFIX)/lib/rcutorture/librcutorture-cds-%-sb.so)
	rm -f $(URCU_SB_NAMES:%=$(DESTDIR)$(PREFIX)/lib/rcutorture/librcutorture-%-sb.so)
	rm -f $(DESTDIR)$(PREFIX)/lib/rcutorture/librcutorture-dpdk-qsbr-sb.so $(DESTDIR)$(PREFIX)/lib/rcutorture/librcutorture-ck-epoch-sb.so
	-rmdir $(DESTDIR)$(PREFIX)/lib/rcutorture
	-rmdir $(DESTDIR)$(PREFIX)/include/rcutorture $(SHARE)/scenarios $(SHARE)/examples $(SHARE)/campaign $(SHARE) $(DOC_DIR)

format:
	clang-format -i $(SRCS) $(UNIT_SRCS) $(HDRS) $(wildcard ci/bench/*.[ch] ci/plugins/*.c ci/mutants/*.[ch] ci/fuzz/*.c sdk/storebuf/*.[ch])

clean:
	rm -rf build build-san build-fuzz build-tsan build-liburcu-* $(BIN)

-include $(OBJS:.o=.d) $(BUILD)/cmd/main.d $(BUILD)/install/scenario.d $(BENCH_OBJS:.o=.d)
