# Integration tests: the kernel's report lines (issue 15 item 10) and the
# second forward-progress test (rcu_torture_fwd_prog_nr, item 4).

t_update_types_and_gp_state_lines() {
	run --flavor memb --gp-sync --gp-poll --duration 1 --stat-interval 0
	expect_status 0
	expect_out '^memb-torture: rcu_torture_write_types: Testing polling GPs\.$'
	expect_out '^memb-torture: rcu_torture_write_types: Testing normal GPs\.$'
	expect_out '^memb-torture: rcu_torture_write_types: Testing 2 update types\.$'
	expect_no_out 'Testing (conditional|expedited|asynchronous) GPs'
	expect_out '^memb-torture: rcu_torture_write_types: gp_cond_wi 1000 gp_poll_wi 550$'
	expect_out '^memb-torture: Start-test grace-period state: g[0-9]+ f0x0$'
	expect_out '^memb-torture: End-test grace-period state: g[0-9]+ f0x0 total-gps=[0-9]+$'
	# Counters from 0 (by default srcu's start 300 grace periods short of
	# the wrap, and the End-test g may be below the Start-test one).
	run --flavor srcu --gpwrap-lag 0 --duration 1 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: rcu_torture_write_types: Testing 7 update types\.$'
	expect_out '^srcu-torture: Start-test grace-period state: g[0-9]+ f0x0$'
	local start end
	start=$(sed -n 's/^srcu-torture: Start-test grace-period state: g\([0-9]*\) .*/\1/p' "$OUT")
	end=$(sed -n 's/^srcu-torture: End-test grace-period state: g\([0-9]*\) .*/\1/p' "$OUT")
	((end > start)) || die "End-test g$end is not past Start-test g$start"
	# Issue 26 item 8: --quiet leaves them out (the closing block only).
	run --flavor memb --duration 1 --stat-interval 0 -q
	expect_status 0
	expect_no_out 'rcu_torture_write_types'
	expect_out '^memb-torture:--- End of test: SUCCESS'
}

# "??? Writer stall state" only when a stat interval saw no update: the
# deliberate stall holds the writer up; a normal run never prints it.
t_writer_stall_state_when_the_writer_is_held() {
	run --flavor prcu --gp-sync --stall-cpu 3s --stall-cpu-holdoff 200ms --stall-timeout 2s \
		--stat-interval 400ms --duration 6
	expect_status 4
	expect_out '^\?\?\? Writer stall state RTWS_SYNC\(21\) g[0-9]+ f0 ->state blocked cpu [0-9]+$'
	# Exactly after the periodic blocks whose ver equals the last one's.
	run --flavor prcu --duration 3 --stat-interval 200ms
	expect_status 0
	local same lines
	same=$(grep -o ' ver: [0-9]*' "$OUT" | sed '$d' | awk '$2 == last { n++ } { last = $2 } END { print n + 0 }')
	lines=$(grep -c '^??? Writer stall state' "$OUT")
	((same == lines)) || die "$lines writer stall lines for $same stats blocks without an update"
}

# The per-transition CPU hotplug messages, only with -v.
t_onoff_transition_messages_with_verbose() {
	run --flavor prcu --cpus 4 --onoff-interval 50ms --duration 1 --stat-interval 0 -v
	expect_status 0
	expect_out '^prcu-torture: torture_onoff task: offlining [0-3]$'
	expect_out '^prcu-torture: torture_onoff task: offlined [0-3]$'
	expect_out '^prcu-torture: torture_onoff task: onlining [0-3]$'
	expect_out '^prcu-torture: torture_onoff task: onlined [0-3]$'
	run --flavor prcu --cpus 4 --onoff-interval 50ms --duration 1 --stat-interval 0
	expect_status 0
	expect_no_out 'torture_onoff task'
}

# Both forward-progress tests with their kernel messages; the need_resched
# test loops for between stall-timeout/div and stall-timeout (0.5 to 4 s
# here) and counts
# updates and grace periods meanwhile.
t_fwd_progress_both_tests_and_messages() {
	local f
	# Until the need_resched test has run once (its barrier line) and the
	# next round has begun (n_max_cbs), not for a fixed 8 s: a loaded
	# machine takes longer over the flood first.
	local nr_done="grep -q '_nr: Waiting for CBs' \"\$OUT\" && grep -q 'fwd_prog n_max_cbs' \"\$OUT\""
	for f in prcu qsbr; do
		run_until "$nr_done" --flavor $f --fwd-progress-need-resched 1 --fwd-progress-holdoff 500ms \
			--stall-timeout 4s --fwd-progress-div 8 --duration 60 --stat-interval 0
		expect_status 0
		expect_out "^$f-torture: rcu_torture_fwd_prog: Starting forward-progress test 0$"
		expect_out "^$f-torture: rcu_torture_fwd_prog_cr: Starting forward-progress test 0$"
		expect_out "^$f-torture: rcu_torture_fwd_prog_cr: Waiting for CBs: barrier\(\) 0$"
		expect_out "^$f-torture: rcu_torture_fwd_prog_nr: Starting forward-progress test 0$"
		expect_out "^$f-torture: rcu_torture_fwd_prog_nr: 0 Duration (5[0-9][0-9]|[6-9][0-9][0-9]|[1-3][0-9]{3}|4000) cver [0-9]+ gps [0-9]+$"
		expect_out "^$f-torture: rcu_torture_fwd_prog_nr: Waiting for CBs: barrier\(\) 0$"
		expect_out "^$f-torture: rcu_torture_fwd_prog n_max_cbs: [0-9]+$"
		expect_out "^$f-torture: rcu_torture_fwd_prog: tested [1-9][0-9]* tested_tries [1-9][0-9]*$"
		expect_out 'End of test: SUCCESS'
		# GPs kept coming during the loop: an update or two GPs.
		grep -E "rcu_torture_fwd_prog_nr: 0 Duration" "$OUT" | awk '{ if ($9 == 0 && $11 < 2) exit 1 }' ||
			die "a need_resched loop saw no update and under two GPs"
	done
	run_until "grep -q '_nr: Waiting for CBs' \"\$OUT\"" --flavor srcu rcutorture.fwd_progress_need_resched=0 --fwd-progress-holdoff 500ms \
		--stall-timeout 2s --duration 60 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: rcu_torture_fwd_prog_nr: 0 Duration '
	bad_input "--fwd-progress-need-resched: '2' is not valid; expected an integer from -1 to 1" \
		--fwd-progress-need-resched 2
	# By default (-1) only the floods run, at their old pace.
	run --flavor memb --fwd-progress-holdoff 300ms --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^memb-torture: rcu_torture_fwd_prog_cr: Starting forward-progress test 0$'
	expect_no_out 'fwd_prog_nr|tested_tries'
}

# The negative control of the need_resched test: busted-nr (urcu-qsbr
# whose quiescent states count only after the thread slept) holds up every
# grace period while the loop runs and yields without sleeping, with the
# loop yielding only when preempted (1) or on every pass (0).
TEST_LIMIT[t_fwd_progress_need_resched_negative_control_fails]=200
t_fwd_progress_need_resched_negative_control_fails() {
	local np
	for np in 1 0; do
		run_caught 3 --scenario BUSTED-NR --fwd-progress-need-resched $np --duration 15 --seed 1 --stat-interval 0
		expect_status 1
		expect_out '^busted-nr-torture: rcu_torture_fwd_prog_nr: Starting forward-progress test 0$'
		expect_out '^busted-nr-torture: rcu_torture_fwd_prog_nr: 0 Duration (5[0-9][0-9]|[6-9][0-9][0-9]|[1-3][0-9]{3}|4000) cver [0-9]+ gps [0-9]+$'
		expect_out '^busted-nr-torture: !!! first failure at [0-9.]+ s: forward progress: need_resched test 0: (no update and [01] grace periods in [0-9]+ ms|[01] grace periods in the last [0-9]+ ms of [0-9]+ ms) of read-side sections'
		expect_out '^busted-nr-torture:--- End of test: FAILURE: '
		expect_no_out 'STALL|rtmbe: [1-9]|early: [1-9]'
	done
	# Without the need_resched test no need_resched failure: the same
	# flavor passes (its grace periods are slow, not stopped), or, when
	# the machine slows them further, the callback flood catches them (1
	# grace period in a 500 ms flood and its barrier, at load 42 in a
	# preflight): that check may catch this busted flavor too.
	run --scenario BUSTED-NR --fwd-progress-need-resched -1 --duration 3 --stat-interval 0
	if ((STATUS != 0)); then
		expect_status 1
		expect_out '^busted-nr-torture: First failure: at [0-9.]+ s, caught by: forward progress$'
		expect_out '^busted-nr-torture: !!! first failure at [0-9.]+ s: forward progress: callback flood 0: '
	fi
	expect_out '^busted-nr-torture: rcu_torture_fwd_prog_cr: Starting forward-progress test 0$'
	expect_no_out 'fwd_prog_nr'
}

# Under --hunt too: injected preemptions and race delays spin in the
# need_resched loop instead of sleeping (a sleep is a voluntary context
# switch, which busted-nr counts as a quiescent state: --hunt passed it
# in 10 of 10 seeds before).
t_fwd_progress_need_resched_negative_control_fails_under_hunt() {
	run_caught 3 --scenario BUSTED-NR --hunt --seed 1 --duration 20 --stat-interval 0
	expect_status 1
	expect_out '^busted-nr-torture: swarm: preempt='
	expect_out '^busted-nr-torture: !!! first failure at [0-9.]+ s: forward progress: need_resched test 0: '
	expect_out '^busted-nr-torture:--- End of test: FAILURE: '
}

# The same test, the same options, on a correct QSBR flavor: SUCCESS.
t_fwd_progress_need_resched_correct_flavor_passes() {
	run --scenario BUSTED-NR --flavor qsbr --duration 8 --stat-interval 0
	expect_status 0
	expect_out '^qsbr-torture: rcu_torture_fwd_prog_nr: 0 Duration [0-9]+ cver [0-9]+ gps [0-9]+$'
	expect_out '^qsbr-torture: rcu_torture_fwd_prog: tested [1-9][0-9]* tested_tries [1-9][0-9]*$'
	expect_out '^qsbr-torture:--- End of test: SUCCESS: '
	expect_no_out '!!!'
}
