# Integration tests: deliberate stalls (--stall-cpu, --stall-cpu-block,
# --stall-gp-kthread, the kernel's stall_cpu* and stall_gp_kthread), the
# test of the stall watchdog itself: on a correct flavor the run must end
# as a STALL that names the stalling thread and its hold, and a stall
# shorter than --stall-timeout must not be reported at all.

# The STALL line names the stall thread's hold, after holdoff + timeout,
# and before the hold could have begun later than its bounded wait for
# older operations (half the timeout) allows.  The tests run with a 3 s
# timeout, so that a loaded machine's scheduling delays are no stall.
expect_stall_named() { # regex-of-hold [holdoff-s]
	local hold=${2:-0.5} timeout=3.0 at behind
	expect_status 4
	expect_out "STALL at ([0-9.]+) s: stall 0 stuck in $1 for [0-9.]+ s$BEHIND_READERS \(--stall-timeout $timeout s\)"
	at=$(sed -n 's/.*STALL at \([0-9.]*\) s.*/\1/p' "$OUT" | head -n 1)
	# Time behind readers kept from their CPUs is not counted (and
	# comes on top).
	behind=$(sed -n 's/.*STALL at .* (and \([0-9.]*\) s behind readers waiting for a CPU).*/\1/p' "$OUT" | head -n 1)
	awk -v a="$at" -v h="$hold" -v t="$timeout" -v b="${behind:-0}" 'BEGIN { exit !(a >= h + t && a - b < h + 2 * t + 1) }' ||
		die "stall reported at $at s (${behind:-0} s of it behind starved readers), expected from $hold + $timeout s on"
	expect_out "First failure: at [0-9.]+ s, caught by: stall: stall 0 stuck in $1"
	expect_out 'End of test: STALL'
}

t_stall_cpu_spinning_reader_is_the_reported_stall() {
	run --scenario STALL-CPU --stall-cpu 8s --stall-timeout 3s --duration 12 --stat-interval 0
	expect_stall_named 'a read-side section held by stall_cpu \(spinning, 8\.0 s\)' 0.2
	expect_out '^prcu-torture: rcu_torture_stall start stall episode 1 on CPU [0-9]+\.$'
	expect_out ' stall_cpu=8s( |$)'
	# The writer it holds up is stuck too, but is not the one named.
	expect_out 'backtrace of writer 0 \(torture thread, tid [0-9]+\), in '
}

t_stall_cpu_block_sleeping_reader_is_the_reported_stall() {
	run --flavor srcu --stall-cpu 8s --stall-cpu-block --stall-cpu-holdoff 500ms \
		--stall-timeout 3s --duration 12 --stat-interval 0
	expect_stall_named 'a read-side section held by stall_cpu \(sleeping, 8\.0 s\)'
	expect_out ' stall_cpu=8s stall_cpu_block=1'
}

t_stall_cpu_qsbr_thread_online_without_quiescent_state() {
	run --flavor qsbr --stall-cpu 8s --stall-cpu-holdoff 500ms --stall-timeout 3s \
		--duration 12 --stat-interval 0
	expect_stall_named 'a read-side section held by stall_cpu \(spinning, 8\.0 s\)'
}

t_stall_gp_kthread_holds_the_grace_period_worker() {
	run --scenario STALL-GP --stall-gp-kthread 8s --stall-timeout 3s --duration 12 --stat-interval 0
	expect_stall_named 'holding the grace-period worker \(stall_gp_kthread, 8\.0 s\)' 0.2
	expect_out ' stall_gp_kthread=8s'
	run --flavor prcu rcutorture.stall_gp_kthread=8 --stall-cpu-holdoff 500ms \
		--stall-timeout 3s --duration 12 --stat-interval 0
	expect_stall_named 'holding the grace-period worker \(stall_gp_kthread, 8\.0 s\)'
}

# Negative control: the same stalls, shorter than --stall-timeout, are
# no stall: the run ends SUCCESS after the stall thread's end message.
t_stall_shorter_than_timeout_is_not_reported() {
	run --flavor prcu --stall-cpu 300ms --stall-gp-kthread 300ms --stall-cpu-holdoff 200ms \
		--stall-timeout 5s --duration 5 --stat-interval 0
	expect_status 0
	expect_out '^prcu-torture: rcu_torture_stall start stall episode 1 on CPU'
	expect_out '^prcu-torture: rcu_torture_stall end\.$'
	expect_out 'End of test: SUCCESS'
	expect_no_out 'STALL'
}

t_stall_options_need_what_they_hold() {
	bad_input "--stall-gp-kthread: flavor memb has no grace-period worker to hold \(no gp_stall hook\)" \
		--flavor memb --stall-gp-kthread 1s
	bad_input "--stall-cpu-block: flavor busted-crash's readers may not block" \
		--flavor busted-crash --stall-cpu 1s --stall-cpu-block
	bad_input "--stall-cpu: 'soon' is not a duration" --stall-cpu soon
	run --flavor srcu rcutorture.stall_cpu=3 rcutorture.stall_cpu_holdoff=2 --dry-run
	expect_status 0
	expect_out ' stall_cpu=3s'
	run --flavor srcu --dry-run
	expect_no_out 'stall_cpu'
}
