# Integration tests: the data-race mode (make tsan, issue 24 item 3).  BIN
# is the ThreadSanitizer build (build-tsan/rcutorture; ci/run-tests runs
# this file only with --tsan-bin), its plugins and plain mutants beside it
# in build-tsan/plugins and build-tsan/mutants.  TSan's own reports go to
# stderr, so these tests run the binary without run()'s sanitizer check.

TSAN_DIR=$(dirname "$BIN")

tsan_run() {
	"${RUN_PREFIX[@]}" "$BIN" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
}

need_tsan_build() {
	"$BIN" --version >/dev/null 2>&1 && [[ -f $TSAN_DIR/mutants/librcutorture-mutant-call-nolock.so ]] ||
		die "no ThreadSanitizer build in $TSAN_DIR: run make tsan"
	nm -D "$BIN" 2>/dev/null | grep -q ' __tsan_on_report$' ||
		die "$BIN does not define ThreadSanitizer's report hook: not a make tsan build"
}

# The per-CPU call() that appends to its queue without the lock one time
# in 100: ThreadSanitizer reports the append racing with the locked ones;
# the run ends FAILURE with the check "data race", both stacks and the
# repro line, and exit 1, not TSan's 66.  TSan sees the race only when
# another thread touches the queue before the racing one locks again: 7 to
# 44 s under 8 busy loops, hence the long --duration (the run stops at the
# report), and up to three seeds.
TEST_LIMIT[t_tsan_unlocked_append_caught]=400
t_tsan_unlocked_append_caught() {
	need_tsan_build
	RUN_CAUGHT_WITH=tsan_run run_caught 3 --flavor "$TSAN_DIR/mutants/librcutorture-mutant-call-nolock.so" --call-rcu percpu \
		--stop-on-failure --duration 120 --seed 1 --stat-interval 0 --json "$TEST_TMP/r.json"
	local m='^mutant-call-nolock-torture:'
	# The race can tear the queue before TSan's report stops the run: the
	# shutdown then waits for the callback it lost, and ends STALL (a
	# CI run at load 7.6 did).  The data race must still be the first
	# failure, and the stall a callback's.
	if [[ $STATUS == 4 ]]; then
		expect_out "$m STALL at [0-9.]+ s: .*(callback|barrier)"
		expect_out "$m--- End of test: STALL: "
	else
		expect_status 1
		expect_out "$m--- End of test: FAILURE: "
	fi
	grep -q 'WARNING: ThreadSanitizer: data race' "$ERR" || die "stderr lacks TSan's report"
	expect_out "$m !!! first failure at [0-9.]+ s: data race: ThreadSanitizer: data-race: (read|write) by T[0-9]+ at [^ ]+ [^ ]*engine\.h:[0-9]+, (read|write) by T[0-9]+ at "
	expect_out "$m data race: this access: (read|write) of [0-9]+ bytes at 0x[0-9a-f]+ by thread T[0-9]+"
	expect_out "$m data race: the earlier one: (read|write) of [0-9]+ bytes at 0x[0-9a-f]+ by thread T[0-9]+"
	expect_out "$m data race:     #1 "
	expect_out "$m Reproduce: .*--seed=[1-3]( |\$)"
	expect_out "$m First failure: at [0-9.]+ s, caught by: data race"
	[[ $(jqr "$TEST_TMP/r.json" .first_failure.check) == "data race" ]] ||
		die "JSON first_failure.check is not 'data race'"
}

# No false positive: the correct base the mutant comes from, the example
# plugin and built-in flavors (our own, and liburcu's with its
# unannotated internals suppressed) pass with no TSan report at all, so
# that the harness itself is free of data races TSan can see.
t_tsan_correct_flavors_report_nothing() {
	need_tsan_build
	local f
	for f in "$TSAN_DIR/mutants/librcutorture-mutant-flip.so --call-rcu percpu" \
		"$TSAN_DIR/plugins/librcutorture-example.so" prcu srcu "memb --call-rcu percpu" qsbr; do
		# shellcheck disable=SC2086 # a flavor and its options
		tsan_run --flavor $f --duration 3 --seed 1 --stat-interval 0 --n-barrier-cbs 2 --nfakewriters 2 \
			--cpus 4 --onoff-interval 50ms
		expect_status 0
		expect_out "--- End of test: SUCCESS: "
		! grep -q 'ThreadSanitizer' "$ERR" || die "--flavor $f: a TSan report: $(grep -m 3 -A 6 'WARNING: ThreadSanitizer' "$ERR")"
	done
}

# A library's race, found by the data-race mode: DPDK 22.11's
# rte_rcu_qsbr_check() reads acked_token plainly while another checker
# stores it (__atomic_store_n, relaxed), the cache of the finding in
# docs/findings/dpdk-qsbr-early-callback.md.  The adapter's second path,
# dpdk-qsbr.check=scan, never reads that cache and reports nothing: the
# race is the library's, not ours.  If the first half fails, DPDK changed:
# re-read the finding.
TEST_LIMIT[t_tsan_dpdk_acked_token_race]=300
t_tsan_dpdk_acked_token_race() {
	need_tsan_build
	"$BIN" --list-flavors | grep -q '^dpdk-qsbr ' || die "no dpdk-qsbr flavor in $BIN (libdpdk-dev: ci/deps)"
	RUN_CAUGHT_WITH=tsan_run run_caught 3 --flavor dpdk-qsbr --hunt --stop-on-failure --duration 60 \
		--seed 4 --stat-interval 0
	expect_status 1
	expect_out "^dpdk-qsbr-torture: !!! first failure at [0-9.]+ s: data race: ThreadSanitizer: data-race: .* at (__)?rte_rcu_qsbr_check(_selective|_all)? /usr/include/dpdk/rte_rcu_qsbr\.h:[0-9]+, "
	expect_out '^dpdk-qsbr-torture: data race:     #0 (__)?rte_rcu_qsbr_check'
	tsan_run --flavor dpdk-qsbr --hunt --duration 3 --seed 4 --stat-interval 0 dpdk-qsbr.check=scan
	expect_status 0
	expect_out "--- End of test: SUCCESS: "
	! grep -q 'ThreadSanitizer' "$ERR" || die "check=scan: a TSan report: $(grep -m 3 -A 6 'WARNING: ThreadSanitizer' "$ERR")"
}

# A stall under ThreadSanitizer: the watchdog has every stuck thread walk
# its own stack with libunwind, whose lazily built state (its own locks,
# not instrumented) TSan took for a race of the harness, so every STALL
# in the data-race mode also reported one (torture_watchdog_init() now
# walks a stack once before any thread starts).
t_tsan_stall_reports_no_race() {
	need_tsan_build
	tsan_run --flavor busted-hang --nreaders 4 --duration 10 --seed 1 --stall-timeout 1s --stat-interval 0
	expect_status 4
	expect_out "^busted-hang-torture:--- End of test: STALL: "
	expect_out "^busted-hang-torture: STALL at [0-9.]+ s: "
	! grep -q 'ThreadSanitizer' "$ERR" || die "a TSan report: $(grep -m 3 -A 8 'WARNING: ThreadSanitizer' "$ERR")"
}
