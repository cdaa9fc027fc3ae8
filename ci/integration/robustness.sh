# Integration tests: the tool stays in control when the flavor hangs or
# crashes, and always prints its report.

# A busted-hang run must end as a stall within the timeout, with backtraces.
expect_stall() { # hang-kind expected-stuck-regex [option...]
	local t0=$(now_ms) kind=$1 stuck=$2
	shift 2
	run --flavor busted-hang busted-hang.hang=$kind --stall-timeout 1s --duration 30 --stat-interval 0 "$@"
	set -- "$kind" "$stuck"
	local took=$(($(now_ms) - t0))
	expect_status 4
	expect_out "^busted-hang-torture: STALL at [0-9.]+ s: $2"
	expect_out '^busted-hang-torture: backtrace of writer 0'
	expect_out '^    #0 '
	expect_out '^busted-hang-torture: Reader Pipe:'
	# What stalled is the first failure (it said "none" before).
	expect_out "^busted-hang-torture: First failure: at [0-9.]+ s, caught by: stall: $2"
	expect_out '^busted-hang-torture:--- End of test: STALL: '
	((took < 6000)) || die "stall took ${took} ms to report (timeout 1 s)"
}

t_hung_synchronize_is_a_stall() {
	expect_stall sync '(writer|fakewriter) [0-9]+ stuck in synchronize'
	expect_out 'busted_hang_synchronize\+0x'
}

t_hung_barrier_is_a_stall() {
	run --flavor busted-hang busted-hang.hang=barrier --stall-timeout 1s --duration 30 --stat-interval 0 --nfakewriters 8
	expect_status 4
	expect_out 'STALL at [0-9.]+ s: (fakewriter [0-9]+ stuck in barrier|final-barrier 0 stuck in final barrier)'
	expect_out 'busted_hang_barrier\+0x'
}

# Without fake writers no barrier runs during the test, so nothing can
# prove the callback lost (with barriers it is a lost-callback FAILURE):
# the watchdog sees it wait --stall-timeout.
t_never_invoked_callback_is_a_stall() {
	expect_stall call 'element aging callback 0x[0-9a-f]+ not invoked [0-9.]+ s after call\(\)' --nfakewriters 0
}

t_hung_reader_is_a_stall() {
	expect_stall read 'reader [0-9]+ made no progress for [0-9.]+ s'
	expect_out 'busted_hang_read_lock\+0x'
}

t_stall_after_the_deadline_is_bounded() {
	# The flavor hangs only in the final barrier: the report still comes
	# within --stall-timeout of the end.
	local t0=$(now_ms)
	run --flavor busted-hang busted-hang.hang=barrier --nfakewriters 0 --gp-normal --stall-timeout 1s --duration 1 --stat-interval 0
	local took=$(($(now_ms) - t0))
	expect_status 4
	expect_out 'final-barrier 0 stuck in final barrier'
	((took < 1000 + 1000 + 5000)) || die "took ${took} ms"
}

t_crash_in_flavor_exits_5_with_backtrace() {
	run --flavor busted-crash --duration 10
	expect_status 5
	expect_out '^busted-crash-torture: !!! fatal signal SIGSEGV \(Segmentation fault\) in writer 0 at '
	expect_out '^busted-crash-torture: backtrace of the faulting thread:'
	expect_out '^    #0 busted_crash_call\+0x'
	expect_out '^busted-crash-torture: (!!! )?Reader Pipe:'
	expect_out '^busted-crash-torture:--- End of test: CRASH: '
}

t_second_sigint_exits_130() {
	# busted-hang never lets the writer stop, so the run waits in its
	# shutdown until the second SIGINT.
	"$BIN" --flavor busted-hang --duration 60 --stall-timeout 60s >"$OUT" 2>"$ERR" &
	local pid=$!
	sleep 1
	kill -INT $pid
	sleep 0.5
	kill -INT $pid
	wait $pid
	STATUS=$?
	expect_status 130
	expect_err '^rcutorture: interrupted again, exiting without the final report$'
}

t_bad_stall_timeout() {
	run --stall-timeout 10ms
	expect_status 2
	expect_err "^rcutorture: --stall-timeout: '10ms' is out of range; expected 100ms to 1d$"
	run --stall-timeout 2d
	expect_status 2
	run --stall-timeout never
	expect_status 2
	expect_err '^rcutorture: --stall-timeout: '
}

t_poisoned_heads_do_not_disturb_correct_flavors() {
	run --flavor memb --gp-normal --duration 2 --stat-interval 0
	expect_status 0
	expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
}

# Issue 13 item 1: threads start behind a gate, so many readers that spin
# at once cannot starve the thread creating them; a 1-second run with
# 1024 readers ends within seconds (it hung past SIGTERM before), and a
# SIGTERM during such a start-up still gets the report.
t_many_readers_start_and_stop_within_seconds() {
	local start=$SECONDS
	run --nreaders 1024 --duration 1 --stat-interval 0 --fwd-progress 0 -q
	expect_status 0
	expect_out '^memb-torture:--- End of test: SUCCESS: nreaders=1024 '
	((SECONDS - start <= 20)) || die "1024 readers took $((SECONDS - start)) s"
	start=$SECONDS
	"$BIN" --nreaders 2048 --duration 60 --stat-interval 0 --fwd-progress 0 -q >"$OUT" 2>"$ERR" &
	local pid=$!
	sleep 1
	kill -TERM $pid
	wait $pid
	STATUS=$?
	expect_status 0
	expect_out 'SIGTERM received, stopping'
	expect_out '^memb-torture:--- End of test: SUCCESS: nreaders=2048 '
	((SECONDS - start <= 30)) || die "SIGTERM during a 2048-reader run took $((SECONDS - start)) s"
}
