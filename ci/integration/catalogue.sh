# Integration tests: the catalogue of reported RCU bugs (ci/scenarios/BUG-*
# and their FIXED-* twins, man page "CATALOGUE OF REPORTED RCU BUGS"):
# each bug's scenario ends as the bug did, its fixed twin passes.

# Every BUG-* entry has a FIXED-* twin with the same options in the same
# order but for one line: the same flavor parameter (NAME.KEY=) with
# another value, the one that brings the bug back.
t_catalogue_every_bug_has_a_fixed_twin() {
	local f name n=0 bug fixed
	for f in ci/scenarios/BUG-*; do
		name=${f##*/}
		[[ -f ci/scenarios/FIXED-${name#BUG-} ]] || die "$name has no FIXED-${name#BUG-}"
		bug=$(diff <(grep -v '^#' "$f") <(grep -v '^#' "ci/scenarios/FIXED-${name#BUG-}") |
			sed -n 's/^< //p')
		fixed=$(diff <(grep -v '^#' "$f") <(grep -v '^#' "ci/scenarios/FIXED-${name#BUG-}") |
			sed -n 's/^> //p')
		[[ $bug =~ ^[a-z0-9-]+\.[a-z_0-9]+=[^$'\n']+$ && $fixed =~ ^[a-z0-9-]+\.[a-z_0-9]+=[^$'\n']+$ &&
			${bug%%=*} == "${fixed%%=*}" && $bug != "$fixed" ]] ||
			die "$name and its twin differ in more than the bug's parameter: '$bug' / '$fixed'"
		[[ $(diff <(grep -v '^#' "$f") <(grep -v '^#' "ci/scenarios/FIXED-${name#BUG-}") |
			grep -c '^[<>]') == 2 ]] || die "$name and its twin differ in more than one line"
		n=$((n + 1))
	done
	((n >= 1)) || die "no catalogue entries"
}

# Each BUG-* run below is one of up to three seeds (run_caught): caught
# in seconds idle, a loaded machine may need another draw.

# 2017, "Migrate callbacks earlier in the CPU-offline timeline": the
# offline hook waits for callbacks an offline CPU never invokes: a STALL
# naming the hook, in about --stall-timeout (3 s).  The twin migrates them (migrated
# > 0 shows it offlined CPUs that had callbacks) and passes.
TEST_LIMIT[t_catalogue_prcu_late_migrate]=180
t_catalogue_prcu_late_migrate() {
	run_caught 3 --scenario BUG-PRCU-LATE-MIGRATE --duration 10 --seed 1 --stat-interval 0
	expect_status 4
	# The hung offline, or what waits behind it (a callback stranded on
	# the outgoing CPU, a barrier waiting for such callbacks, the default
	# barrier test's among them: which one is oldest depends on the load)
	# is the stall, and the hung offline hook is named either way, there
	# or on the "also waiting" line.
	expect_out "^prcu-torture: STALL at [0-9.]+ s: (onoff [0-9]+ stuck in the flavor's cpu_offline hook|.* callback .* not invoked [0-9.]+ s after call\(\)|((fake)?writer|barrier-driver) [0-9]+ stuck in barrier) "
	expect_out "^prcu-torture: (STALL at [0-9.]+ s: |also waiting \([0-9]+\): (.*; )?)onoff [0-9]+ stuck in the flavor's cpu_offline hook for "
	expect_out '^prcu-torture: flavor state: prcu: .* offline CPUs [1-9][0-9]* .* late_migrate$'
	expect_out '^prcu-torture:--- End of test: STALL: '
	run --scenario FIXED-PRCU-LATE-MIGRATE --duration 3 --stat-interval 0
	expect_status 0
	expect_out '^prcu-torture: prcu: .* migrated [1-9][0-9]* '
	expect_out '^prcu-torture:--- End of test: SUCCESS: '
}

# 2012, "rcu: Disallow callback registry on offline CPUs": a call() on an
# offline CPU leaks until the CPU comes back, so the barrier the onoff
# thread calls right after it returns without it: a lost callback naming
# the offline CPU.  The twin queues it on an online CPU and passes, with
# such calls made (posted > 0) and none leaked.
TEST_LIMIT[t_catalogue_prcu_offline_call]=180
t_catalogue_prcu_offline_call() {
	run_caught 3 --scenario BUG-PRCU-OFFLINE-CALL --duration 5 --seed 1 --stat-interval 0
	expect_status 1
	expect_out '^prcu-torture: !!! first failure at [0-9.]+ s: lost callback: callback 0x[0-9a-f]+ posted by call\(\) on offline simulated CPU [0-9]+ was not invoked by a barrier that began after that call\(\) returned: leaked on the offline CPU$'
	expect_out '^prcu-torture: onoff-call: [1-9][0-9]* callbacks posted on offline CPUs, [1-9][0-9]* not run by the barrier after them$'
	expect_out '^prcu-torture: prcu: .* offline_call_leak \([1-9][0-9]* queued on offline CPUs\)$'
	expect_out '^prcu-torture:--- End of test: FAILURE: '
	run --scenario FIXED-PRCU-OFFLINE-CALL --duration 3 --stat-interval 0
	expect_status 0
	expect_out '^prcu-torture: onoff-call: [1-9][0-9]* callbacks posted on offline CPUs, 0 not run by the barrier after them$'
	expect_out '^prcu-torture:--- End of test: SUCCESS: '
}

# folly issue 1211 (2019), "Deadlock possible between rcu_retire and
# synchronize_rcu": a reader's call() drains under the mutex that a
# synchronize holds while it waits for that reader: a STALL, with the
# flavor state naming the drain stuck inside a read-side section (and the
# watchdog the reader, unless more threads than it lists are stuck).  The
# twin only try-locks and passes with drains and reader posts made.
TEST_LIMIT[t_catalogue_folly_retire_sync]=180
t_catalogue_folly_retire_sync() {
	run_caught 3 --scenario BUG-FOLLY-RETIRE-SYNC --duration 15 --seed 1 --stat-interval 0
	expect_status 4
	expect_out '^prcu-torture: STALL at [0-9.]+ s: '
	expect_out '^prcu-torture: flavor state: prcu: .* retire_drain retire_drain_wait \([0-9]+ drains, [1-9][0-9]* inside read-side sections waiting for the grace-period mutex\)$'
	expect_out '^prcu-torture:--- End of test: STALL: '
	run --scenario FIXED-FOLLY-RETIRE-SYNC --duration 3 --stat-interval 0
	expect_status 0
	expect_out '^prcu-torture: prcu: .* retire_drain \([1-9][0-9]* drains, 0 inside read-side sections waiting for the grace-period mutex\)$'
	expect_out '^prcu-torture: reader-cbs: [1-9][0-9]* callbacks posted inside read-side sections$'
	expect_out '^prcu-torture:--- End of test: SUCCESS: '
}

# liburcu's rule: no rcu_barrier() inside a read-side section or from a
# callback.  Without the check the barrier called from a callback waits
# for callbacks its own thread must run: a STALL naming the harness's
# illegal call (on the STALL line or among the "also waiting", depending on
# which stuck operation is oldest).  The twin refuses and reports every
# such call (tries == refusals > 0) and passes.
TEST_LIMIT[t_catalogue_liburcu_illegal_barrier]=180
t_catalogue_liburcu_illegal_barrier() {
	run_caught 3 --scenario BUG-LIBURCU-ILLEGAL-BARRIER --duration 15 --seed 1 --stat-interval 0
	expect_status 4
	expect_out "^prcu-torture: (STALL at [0-9.]+ s: |also waiting \([0-9]+\): (.*; )?)illegal-barrier 0 stuck in (waiting for a callback that calls barrier\(\)|barrier\(\) inside a read-side section) for "
	expect_out '^prcu-torture: flavor state: prcu: .* unchecked_barrier$'
	expect_out '^prcu-torture: illegal-barrier: [1-9][0-9]* barrier calls inside read-side sections or callbacks, 0 refused and reported by the flavor$'
	expect_out '^prcu-torture:--- End of test: STALL: '
	run --scenario FIXED-LIBURCU-ILLEGAL-BARRIER --duration 3 --stat-interval 0
	expect_status 0
	grep -qE '^prcu-torture: illegal-barrier: ([1-9][0-9]*) barrier calls inside read-side sections or callbacks, \1 refused and reported by the flavor$' "$OUT" ||
		die "not every illegal barrier was refused: $(grep illegal-barrier: "$OUT")"
	expect_out '^prcu-torture:--- End of test: SUCCESS: '
}

# liburcu 0.13.2 (2022), "Fix: urcu-wait: futex wait: handle spurious
# futex wakeups": a waiter that takes any wakeup for its own returns from
# synchronize before its grace period ends: the harness's early grace
# period check (a reader still in the section it was in when the wait
# began), with the flavor state counting the waits cut short.  The twin
# checks again after every wakeup and passes.
TEST_LIMIT[t_catalogue_liburcu_spurious_wake]=180
t_catalogue_liburcu_spurious_wake() {
	run_caught 3 --scenario BUG-LIBURCU-SPURIOUS-WAKE --duration 5 --seed 1 --stat-interval 0
	expect_status 1
	# The readers may see the element that wait freed first.
	expect_first_check 'early grace period|too-short grace period|rtmbe'
	expect_check_failed 'early grace period' 'an? [a-z_ ()]+ returned while reader [0-9]+ was still in the read-side section it was in before the wait began'
	expect_out '^srcu-torture: srcu: .* trust_wakeup \([1-9][0-9]* waits ended by a wakeup before their grace period\)$'
	expect_out '^srcu-torture:--- End of test: FAILURE: '
	run --scenario FIXED-LIBURCU-SPURIOUS-WAKE --duration 3 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: Writer GPs: sync: [1-9][0-9]* exp: [1-9][0-9]* '
	expect_out '^srcu-torture:--- End of test: SUCCESS: '
}

# Tree SRCU, 2022: 282d8998e997 made expedited grace periods sleep a
# jiffy or more (qemu boots slowed to minutes), fixed for v5.19 by
# 8f870e6eb8c0 and 4f2bfd9494a0.  With srcu.policy=282d at HZ=100 nine
# in ten expedited grace periods take over 8 ms: --exp-gp-bound's failure, the
# state line naming the policy.  The twin (srcu.policy=final) passes with
# at least 100 expedited grace periods timed, so that the check ran.
TEST_LIMIT[t_catalogue_srcu_exp_delay]=180
t_catalogue_srcu_exp_delay() {
	run_caught 3 --scenario BUG-SRCU-EXP-DELAY --duration 10 --seed 1 --stat-interval 0
	expect_status 1
	expect_out '^srcu-torture: !!! first failure at [0-9.]+ s: expedited grace-period latency: [0-9]+ of [0-9]+ expedited grace periods took longer than --exp-gp-bound=8.000 ms .*: nine in ten or more are above the bound$'
	expect_out '^srcu-torture: srcu: policy 282d hz 100 '
	expect_out '^srcu-torture:--- End of test: FAILURE: '
	run --scenario FIXED-SRCU-EXP-DELAY --duration 5 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: exp-gp-bound: [1-9][0-9]{2,} expedited grace periods, [0-9]+ longer than 8.000 ms$'
	expect_out '^srcu-torture:--- End of test: SUCCESS: '
}

# --illegal-barrier on a flavor that does not declare the check: the
# harness never hands it an illegal barrier (no deadlock, 0 calls).
t_illegal_barrier_spares_unchecked_flavors() {
	run --flavor srcu --illegal-barrier --duration 1 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: illegal-barrier: 0 barrier calls inside read-side sections or callbacks, 0 refused and reported by the flavor$'
}

# --illegal-barrier on a flavor that declares the check but does not
# report (the silent-barrier plugin: its barrier() refuses, returning at
# once, without calling rcut_illegal_barrier()): the harness names it,
# with no call refused and reported, and the run fails.
t_illegal_barrier_silent_flavor_reported() {
	need_plugins
	run --flavor "$PLUGINS/librcutorture-silent-barrier.so" --illegal-barrier --duration 2 \
		--stat-interval 0
	expect_status 1
	expect_out '^silent-barrier-torture: !!! first failure at [0-9.]+ s: undetected illegal barrier: flavor silent-barrier declares barrier checks \(RCUT_CAP_BARRIER_CHECK\), but its barrier\(\) called (inside a read-side section|from a callback) returned without reporting it$'
	expect_out '^silent-barrier-torture: illegal-barrier: [1-9][0-9]* barrier calls inside read-side sections or callbacks, 0 refused and reported by the flavor$'
	expect_out '^silent-barrier-torture:--- End of test: FAILURE: '
}

# --reader-cbs: callbacks posted from inside read-side sections are legal
# and accounted like any other: srcu and memb pass with posts made; a
# flavor whose call() may block is spared.
t_reader_cbs_legal() {
	local f
	for f in srcu memb; do
		run --flavor $f --reader-cbs 20 --duration 2 --stat-interval 0
		expect_status 0
		expect_out "^$f-torture: reader-cbs: [1-9][0-9]* callbacks posted inside read-side sections$"
		expect_out "^$f-torture: Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0$"
	done
	bad_input "--reader-cbs: 'x' is not valid; expected an integer from 0 to 1000000000" --reader-cbs x
}

# --onoff-call: a call() on a just-offlined CPU must be run by the barrier
# that follows; srcu (one callback list) passes with such calls made.
t_onoff_call_srcu() {
	run --flavor srcu --cpus 4 --onoff-interval 20ms --onoff-call --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: onoff-call: [1-9][0-9]* callbacks posted on offline CPUs, 0 not run by the barrier after them$'
}

# --exp-gp-bound: a bound no expedited grace period can meet fails the
# run (nine in ten over), naming the count; one every grace period meets
# passes with the count printed.
t_exp_gp_bound() {
	run --flavor srcu --cpus 4 --nreaders 2 --nfakewriters 0 --gp-exp --exp-gp-bound 1ns \
		--duration 5 --stat-interval 0
	expect_status 1
	expect_out '^srcu-torture: !!! first failure at [0-9.]+ s: expedited grace-period latency: [0-9]+ of [0-9]+ expedited grace periods took longer than --exp-gp-bound=0.000 ms .*: nine in ten or more are above the bound$'
	expect_out '^srcu-torture: exp-gp-bound: [1-9][0-9]* expedited grace periods, [1-9][0-9]* longer than 0.000 ms$'
	run --flavor srcu --cpus 4 --nreaders 2 --nfakewriters 0 --gp-exp --exp-gp-bound 1d \
		--duration 2 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: exp-gp-bound: [1-9][0-9]* expedited grace periods, 0 longer than 86400000.000 ms$'
}

# ci/bench/catalogue (make bench): one seed of one entry (every entry's
# pair has its own test above), its row and its JSON, with the figures of
# the runs it kept.
t_catalogue_bench_script() {
	ci/bench/catalogue --bin "$BIN" --seeds 1 --limit 6 --only PRCU-LATE-MIGRATE \
		--out "$TEST_TMP/b" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 0
	expect_out '^entry +reproduced +median_s +worst_s +fixed_ok +target$'
	expect_out '^PRCU-LATE-MIGRATE +1/1 +[0-9.]+ +[0-9.]+ +1/1 +yes$'
	expect_out '^load before: .*load average'
	jq -e '.seeds == 1 and (.entries[] | select(.name == "PRCU-LATE-MIGRATE") |
		.expect == "STALL" and .reproduced == 1 and .fixed_success == 1 and .median_s > 0)' \
		"$TEST_TMP/b/catalogue.json" >/dev/null || die "catalogue.json: $(cat "$TEST_TMP/b/catalogue.json")"
	grep -q 'End of test: STALL' "$TEST_TMP/b/catalogue/BUG-PRCU-LATE-MIGRATE.1.log" || die "no BUG log"
	ci/bench/catalogue --seeds x >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 2
	expect_err "^catalogue: --seeds: 'x' is not a positive count$"
}
