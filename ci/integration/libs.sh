# Integration tests: the flavors of the RCU libraries people ship (issue
# 16): Concurrency Kit's epoch (ck-epoch), DPDK's QSBR (dpdk-qsbr) and
# libcds's URCU (cds-instant, cds-buffered, cds-signal, C++ plugins).
# ci/deps installs the three libraries, so every flavor must be built.

LIB_FLAVORS="ck-epoch dpdk-qsbr cds-instant cds-buffered cds-signal"

# A library flavor with the parameters the tests of harness features run
# it with: dpdk-qsbr's check() is wrong in DPDK 22.11 (its acked_token
# cache; docs/findings/dpdk-qsbr-early-callback.md): in 10 runs of 2 s of
# one seed at load 18, 5 failed with the library's check and none with
# dpdk-qsbr.check=scan, so those tests use the scan path.
lib_flavor_args() { # flavor
	if [[ $1 == dpdk-qsbr ]]; then
		echo "dpdk-qsbr dpdk-qsbr.check=scan"
	else
		echo "$1"
	fi
}

# The run in $OUT ended SUCCESS, pipe clean, every callback run once.
lib_clean_success() { # flavor
	expect_status 0
	expect_out "^$1-torture:--- End of test: SUCCESS: "
	(($(pipe_slot 0) > 0)) || die "$1: pipe stage 0 count is zero"
	(($(pipe_late_sum) == 0)) || die "$1: pipe stages >= 2 are non-zero"
	expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
}

# Issue 24 item 2: liburcu's flavors built again as plugins instrumented
# with the store-buffer SDK.  Each correct one succeeds under --hunt with
# its stores buffered and automatic race points taken; memb and bp order
# their readers with liburcu's own membarrier (inside liburcu, which the
# SDK's wrappers reach only through libhook.c), so that drains too.
SB_FLAVORS="memb-sb mb-sb qsbr-sb bp-sb"

t_libs_instrumented_liburcu_flavors_succeed() {
	local f
	run --list-flavors
	expect_status 0
	for f in $SB_FLAVORS; do
		expect_out "^$f +liburcu .*; instrumented \(store-buffer SDK\) \[liburcu [^]]+\]$"
	done
	for f in $SB_FLAVORS; do
		run --flavor $f --hunt --duration 3 --stat-interval 0 --json "$TEST_TMP/$f.json"
		lib_clean_success $f
		expect_out "^$f-torture: .* auto-races: [1-9][0-9]*/[1-9][0-9]*$"
		jqr "$TEST_TMP/$f.json" '.final.store_buffer.buffered > 0 and .final.auto_races.points + .final.auto_races.waits > 0' >/dev/null ||
			die "$f: nothing buffered or no automatic race point"
		if [[ $f == memb-sb || $f == bp-sb ]]; then
			jqr "$TEST_TMP/$f.json" '.final.store_buffer.membarrier_drains > 0' >/dev/null ||
				die "$f: liburcu's membarrier drained no store buffer"
		fi
	done
	# Per-CPU queues: liburcu's call_rcu() read-locks inside the
	# adapter's read lock, in uninstrumented code that must see the
	# adapter's buffered store (every grace period stalled at seed 2).
	for f in memb-sb bp-sb; do
		run --flavor $f --call-rcu percpu --hunt --seed 2 --duration 3 --stat-interval 0
		lib_clean_success $f
	done
}

# DPDK's QSBR and ck's epoch adapters instrumented the same way
# (dpdk-qsbr-sb, ck-epoch-sb): the headers' inlined read sides and checks
# run under the emulation and the automatic race points.  dpdk-qsbr-sb
# buffers DPDK's stores (its asm full fence made visible,
# flavors/ext/storebuf_dpdk.h) and is correct with check=scan: the default
# check=api path has DPDK's own acked_token bug
# (docs/findings/dpdk-qsbr-early-callback.md), which may fail a run.  ck's
# loads and stores are volatile, plain to the instrumentation: race
# points, no buffering.
t_libs_instrumented_ext_flavors_succeed() {
	local f
	run --list-flavors
	expect_status 0
	expect_out "^dpdk-qsbr-sb +DPDK rte_rcu_qsbr .*; instrumented \(store-buffer SDK\)$"
	expect_out "^ck-epoch-sb +Concurrency Kit ck_epoch: .*; instrumented \(store-buffer SDK\)$"
	f=dpdk-qsbr-sb
	run --flavor $f $f.check=scan --hunt --duration 3 --stat-interval 0 --json "$TEST_TMP/$f.json"
	lib_clean_success $f
	expect_out "^$f-torture: .* auto-races: [1-9][0-9]*/[1-9][0-9]*$"
	jqr "$TEST_TMP/$f.json" '.final.store_buffer.buffered > 0 and .final.auto_races.points + .final.auto_races.waits > 0' >/dev/null ||
		die "$f: nothing buffered or no automatic race point"
	# Both synchronize paths: DPDK's own (in the library, entered with
	# the caller's buffer drained) and the adapter's poll.
	run --flavor $f $f.check=scan $f.sync=synchronize --hunt --seed 3 --duration 3 --stat-interval 0
	lib_clean_success $f
	f=ck-epoch-sb
	run --flavor $f --hunt --duration 3 --stat-interval 0 --json "$TEST_TMP/$f.json"
	lib_clean_success $f
	jqr "$TEST_TMP/$f.json" '.final.auto_races.points + .final.auto_races.waits > 0' >/dev/null ||
		die "$f: no automatic race point"
	# ck's own spinning synchronize and barrier, and reclaim by sync.
	run --flavor $f $f.wait=spin $f.reclaim=sync --hunt --seed 3 --duration 3 --stat-interval 0
	lib_clean_success $f
	# libcds's URCU: templates over std::atomic, all of it instrumented,
	# its signal flavor's barrier handler too (it drains the reader's
	# buffer with its fence).
	for f in cds-instant-sb cds-buffered-sb cds-signal-sb; do
		run --flavor $f --hunt --duration 3 --stat-interval 0 --json "$TEST_TMP/$f.json"
		lib_clean_success $f
		jqr "$TEST_TMP/$f.json" '.final.store_buffer.buffered > 0 and .final.auto_races.points + .final.auto_races.waits > 0' >/dev/null ||
			die "$f: nothing buffered or no automatic race point"
	done
	run --list-flavors
	expect_out "^cds-buffered-sb +libcds 2.3 general_buffered URCU: .*; instrumented \(store-buffer SDK\)$"
}

t_libs_list_flavors_shows_each_library_flavor() {
	local f
	run --list-flavors -v
	expect_status 0
	for f in $LIB_FLAVORS; do
		expect_out "^$f +[A-Za-z]"
	done
	expect_no_out '\(absent: '
	expect_out '^ +ck-epoch.reclaim=poll: '
	expect_out '^ +dpdk-qsbr.max_threads=128: '
	expect_out '^ +cds-buffered.capacity=256: '
	expect_out '^ +primitives: sync,call\(may-block\),barrier,blocking-readers$'
	expect_out '^   plugin: .*/librcutorture-cds-signal\.so$'
}

# CPU offline every 20 ms, the barrier test and a callback flood.
t_libs_survive_onoff_barrier_and_flood() {
	local f
	for f in $LIB_FLAVORS; do
		# shellcheck disable=SC2046 # the flavor and its parameters, split
		expect_survives_onoff_barrier_and_flood $(lib_flavor_args "$f")
		expect_out 'onoff: [1-9][0-9]*/'
	done
}

# Each library's stats line (the scale report prints the flavor's line):
# asynchronous grace periods went through the library's callback path.
t_libs_stats_line_shows_the_library_counters() {
	run --test scale --flavor ck-epoch --gp-async --duration 1
	expect_status 0
	expect_out '^ck-epoch: epoch [1-9][0-9]* records [1-9][0-9]* free [0-9]+ pending [0-9]+ peak [0-9]+ dispatch [1-9][0-9]* polls [1-9][0-9]* barriers [0-9]+ backlog 0 reclaim poll sections 1 batch 1$'
	run --test scale --flavor dpdk-qsbr --gp-async --duration 1
	expect_status 0
	expect_out '^dpdk-qsbr: token [1-9][0-9]* acked [1-9][0-9]* threads [0-9]+/128 checks [1-9][0-9]* done [1-9][0-9]* backlog 0$'
	for f in instant buffered signal; do
		run --test scale --flavor cds-$f --gp-async --duration 1
		expect_status 0
		expect_out "^cds-$f: backoff sleep .*retired [1-9][0-9]* invoked [1-9][0-9]* pending 0 "
	done
	expect_out '^cds-signal: backoff sleep capacity 256 signal 10 '
}

# Preemption injection: threads parked in signal handlers anywhere, the
# libraries' own signals (cds-signal) included.
t_libs_survive_preemption() {
	local f
	for f in $LIB_FLAVORS; do
		# shellcheck disable=SC2046 # the flavor and its parameters, split
		run --flavor $(lib_flavor_args "$f") --cpus 4 --preempt-duration 2ms --preempt-interval 5ms \
			--n-barrier-cbs 2 --duration 3 --stat-interval 0
		expect_status 0
		expect_out "^$f-torture:--- End of test: SUCCESS"
		expect_out 'preempts: [1-9][0-9]*/'
		expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
	done
}

# The knobs reach the library: ck's sync reclaim and deferral batch, DPDK's
# polled synchronize and waiting check, libcds's tiny buffer.
t_libs_parameters_change_the_mapping() {
	local f
	for f in "ck-epoch ck-epoch.reclaim=sync ck-epoch.batch=8 ck-epoch.sections=0" \
		"dpdk-qsbr dpdk-qsbr.sync=poll dpdk-qsbr.check=scan dpdk-qsbr.max_threads=64" \
		"cds-buffered cds-buffered.capacity=2 cds-buffered.flush_ms=1 cds-buffered.backoff=default"; do
		# shellcheck disable=SC2086 # flavor and its parameters, split
		run --flavor $f --fwd-progress 1 --fwd-progress-holdoff 500ms --duration 2 --stat-interval 0
		lib_clean_success "${f%% *}"
	done
	run --test scale --flavor ck-epoch ck-epoch.reclaim=sync ck-epoch.batch=8 ck-epoch.sections=0 \
		--gp-async --duration 1
	expect_status 0
	expect_out '^ck-epoch: .* dispatch [1-9][0-9]* polls [1-9][0-9]* .* reclaim sync sections 0 batch 8$'
	run --test scale --flavor dpdk-qsbr dpdk-qsbr.sync=poll dpdk-qsbr.check_wait=1 dpdk-qsbr.max_threads=64 --duration 1
	expect_status 0
	expect_out '^dpdk-qsbr: token [1-9][0-9]* acked [1-9][0-9]* threads [0-9]+/64 '
	run --test scale --flavor cds-buffered cds-buffered.capacity=2 cds-buffered.backoff=default --gp-async --duration 1
	expect_status 0
	expect_out '^cds-buffered: backoff default capacity 2 '
	bad_input 'dpdk-qsbr.sync' --flavor dpdk-qsbr dpdk-qsbr.sync=spin --duration 1
}

# More threads than DPDK's QS variable holds: a hard error, never a reader
# left unprotected.
t_libs_dpdk_thread_overflow_is_an_error() {
	run --flavor dpdk-qsbr dpdk-qsbr.max_threads=2 --duration 1 --stat-interval 0
	[[ $STATUS != 0 ]] || die "ran with more threads than dpdk-qsbr.max_threads"
	grep -q 'more than dpdk-qsbr.max_threads=2 threads' "$ERR" "$OUT" ||
		die "no message naming dpdk-qsbr.max_threads"
}

# A build without the libraries (make NO_CK=1 NO_DPDK=1 NO_CDS=1, which
# pretends they are missing) succeeds, lists each flavor as absent with
# the reason, and refuses to run one with that reason.
t_libs_missing_library_leaves_the_flavor_out() {
	local b=$TEST_TMP/build-nolibs f
	# A build test: once, with the normal binary, not again under ASan.
	[[ $BIN == *build-san/* ]] && return 0
	# The normal build's objects, so that only what the libraries change
	# (the registry, the bundled plugin list, the link) is rebuilt.
	mkdir -p "$b" && tree_locked cp -a build/. "$b/" || die "cannot copy build/"
	rm -rf "$b/lib"
	make --no-print-directory -j2 BUILD="$b" NO_CK=1 NO_DPDK=1 NO_CDS=1 all \
		>"$TEST_TMP/make.log" 2>&1 || die "make without the libraries: $(tail -n 5 "$TEST_TMP/make.log")"
	BIN=$b/rcutorture run --list-flavors
	expect_status 0
	for f in $LIB_FLAVORS; do
		expect_out "^$f +\(absent: NO_(CK|DPDK|CDS)=1 given to make\)$"
	done
	expect_out '^dpdk-qsbr-sb +\(absent: NO_DPDK=1 given to make\)$'
	expect_out '^ck-epoch-sb +\(absent: NO_CK=1 given to make\)$'
	expect_out '^cds-signal-sb +\(absent: NO_CDS=1 given to make\)$'
	[[ ! -e $b/lib/librcutorture-cds-instant.so ]] || die "libcds plugin built with NO_CDS=1"
	[[ ! -e $b/lib/librcutorture-cds-instant-sb.so ]] || die "cds-instant-sb plugin built with NO_CDS=1"
	[[ ! -e $b/lib/librcutorture-dpdk-qsbr-sb.so ]] || die "dpdk-qsbr-sb plugin built with NO_DPDK=1"
	[[ ! -e $b/lib/librcutorture-ck-epoch-sb.so ]] || die "ck-epoch-sb plugin built with NO_CK=1"
	BIN=$b/rcutorture run --flavor ck-epoch --duration 1
	expect_status 2
	expect_err "^rcutorture: --flavor: flavor 'ck-epoch' is not in this build: NO_CK=1 given to make$"
	BIN=$b/rcutorture run --flavor cds-signal --duration 1
	expect_status 2
	expect_err "^rcutorture: --flavor: flavor 'cds-signal' is not in this build: NO_CDS=1 given to make$"
	BIN=$b/rcutorture run --flavor memb --duration 1 --stat-interval 0
	expect_status 0
}

# make install puts the libcds plugins and the instrumented library
# flavors in PREFIX/lib/rcutorture, where the installed binary looks for
# them (PREFIX, never DESTDIR).
t_libs_install_puts_the_libcds_plugins_in_prefix_lib() {
	local dest=$TEST_TMP/stage f
	[[ $BIN == *build-san/* ]] && return 0 # a build test, as above
	tree_locked make --no-print-directory install DESTDIR="$dest" PREFIX=/usr \
		>"$TEST_TMP/make.log" 2>&1 || die "make install: $(tail -n 5 "$TEST_TMP/make.log")"
	for f in cds-instant cds-buffered cds-signal memb-sb mb-sb qsbr-sb bp-sb dpdk-qsbr-sb ck-epoch-sb \
		cds-instant-sb cds-buffered-sb cds-signal-sb; do
		[[ -f $dest/usr/lib/rcutorture/librcutorture-$f.so ]] ||
			die "make install did not install librcutorture-$f.so"
	done
	BIN=$dest/usr/bin/rcutorture run --list-flavors
	expect_status 0
	expect_out '^Bundled plugins \(/usr/lib/rcutorture\):$'
	tree_locked make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr >>"$TEST_TMP/make.log" 2>&1 ||
		die "make uninstall failed"
	[[ ! -e $dest/usr/lib/rcutorture ]] || die "make uninstall left usr/lib/rcutorture"
}

# dpdk-qsbr.check=scan, the second way to drive librte_rcu: the worker and
# the polled synchronize read DPDK's per-thread counters themselves and
# never touch its acked_token cache (which stays at its initial 0).
t_libs_dpdk_check_scan_variant() {
	run --flavor dpdk-qsbr dpdk-qsbr.check=scan --fwd-progress 1 --fwd-progress-holdoff 500ms \
		--n-barrier-cbs 2 --duration 3 --stat-interval 0
	lib_clean_success dpdk-qsbr
	run --test scale --flavor dpdk-qsbr dpdk-qsbr.check=scan --gp-async --duration 1
	expect_status 0
	expect_out '^dpdk-qsbr: token [1-9][0-9]* acked 0 threads [0-9]+/128 checks [1-9][0-9]* done [1-9][0-9]* '
	run --test scale --flavor dpdk-qsbr --gp-async --duration 1
	expect_status 0
	expect_out '^dpdk-qsbr: token [1-9][0-9]* acked [1-9][0-9]* '
	bad_input "dpdk-qsbr.check: bad value 'both'; expected one of api, scan" \
		--flavor dpdk-qsbr dpdk-qsbr.check=both
}

# The finding's reproducer (docs/findings/dpdk-qsbr-acked-token.c): with
# the installed librte_rcu, rte_rcu_qsbr_check() caches an acked_token
# above a thread that came online behind its scan, and returns 1 for a
# token that thread has not passed.  If this fails, the library changed:
# re-read the finding.
t_libs_dpdk_acked_token_reproducer() {
	local cc=${CC:-cc} arch
	arch=$($cc -dumpmachine)
	$cc -I/usr/include/dpdk -I/usr/include/"$arch"/dpdk -include rte_config.h \
		docs/findings/dpdk-qsbr-acked-token.c -lrte_rcu -lrte_eal -pthread \
		-o "$TEST_TMP/acked" 2>"$ERR" || die "reproducer does not build: $(head -n 3 "$ERR")"
	BIN=$TEST_TMP/acked run
	expect_status 1
	expect_out '^check\(t1=2\) by the checker: 1; acked_token now 3$'
	expect_out '^A online, counter 2 < t2=3, has not reported since t2; check\(t2\) = 1: EARLY'
	expect_out '^early grace period at attempt [1-5] of 5$'
}
