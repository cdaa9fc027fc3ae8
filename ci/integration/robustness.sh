# Integration tests: the tool stays in control when the flavor hangs or
# crashes, and always prints its report.

# A busted-hang run must end as a stall within the timeout, with backtraces.
expect_stall() { # hang-kind expected-stuck-regex [option...]
	local kind=$1 stuck=$2
	shift 2
	run --flavor busted-hang busted-hang.hang=$kind --stall-timeout 1s --duration 30 --stat-interval 0 "$@"
	set -- "$kind" "$stuck"
	expect_status 4
	expect_out "^busted-hang-torture: STALL at [0-9.]+ s: $2"
	expect_out '^busted-hang-torture: backtrace of writer 0'
	expect_out '^    #0 '
	expect_out '^busted-hang-torture: Reader Pipe:'
	# What stalled is the first failure (it said "none" before).
	expect_out "^busted-hang-torture: First failure: at [0-9.]+ s, caught by: stall: $2"
	expect_out '^busted-hang-torture:--- End of test: STALL: '
	# The watchdog, not the 30 s duration, ended it (the hang starts at
	# once; 15 times the timeout is the load's margin).
	expect_report_time_below 'STALL at' 15 'the stall'
}

t_hung_synchronize_is_a_stall() {
	expect_stall sync '(writer|fakewriter) [0-9]+ stuck in synchronize'
	expect_out 'busted_hang_synchronize\+0x'
}

t_hung_barrier_is_a_stall() {
	run --flavor busted-hang busted-hang.hang=barrier --stall-timeout 1s --duration 30 --stat-interval 0 --nfakewriters 8
	expect_status 4
	expect_out 'STALL at [0-9.]+ s: ((fakewriter|barrier-driver) [0-9]+ stuck in barrier|final-barrier 0 stuck in final barrier)'
	expect_out 'busted_hang_barrier\+0x'
}

# Without fake writers no barrier runs during the test, so nothing can
# prove the callback lost (with barriers it is a lost-callback FAILURE):
# the watchdog sees it wait --stall-timeout.
# --n-barrier-cbs 0: the default barrier test would be stuck first.
t_never_invoked_callback_is_a_stall() {
	expect_stall call 'element aging callback 0x[0-9a-f]+ not invoked [0-9.]+ s after call\(\)' --nfakewriters 0 \
		--n-barrier-cbs 0
}

t_hung_reader_is_a_stall() {
	expect_stall read 'reader [0-9]+ made no progress for [0-9.]+ s'
	expect_out 'busted_hang_read_lock\+0x'
}

# A reader that hangs in a nested read_lock holds every grace period up
# from inside its section: the writers' waits stuck behind it (some began
# before it stopped) are its victims, and the reader is named the cause
# (two fresh-clone runs named a victim, issue 29).
t_hung_nested_reader_is_named_before_its_victims() {
	run --flavor busted-hang busted-hang.hang=read busted-hang.nested=1 --reader-nesting 8 \
		--stall-timeout 1s --duration 30 --stat-interval 0
	expect_status 4
	expect_out '^busted-hang-torture: STALL at [0-9.]+ s: reader [0-9]+ made no progress for [0-9.]+ s'
	expect_out '^busted-hang-torture: also waiting \([0-9]+\): .*(writer|fakewriter) [0-9]+ stuck in (synchronize|barrier)'
	expect_out 'busted_hang_read_lock\+0x'
}

t_stall_after_the_deadline_is_bounded() {
	# The flavor hangs only in the final barrier (no barrier test, on by
	# default): the report still comes within --stall-timeout of the end.
	run --flavor busted-hang busted-hang.hang=barrier --nfakewriters 0 --gp-normal --stall-timeout 1s --duration 1 --stat-interval 0 \
		--n-barrier-cbs 0
	expect_status 4
	expect_out 'final-barrier 0 stuck in final barrier'
	# 1 s of run, 1 s of timeout, and the load's margin.
	expect_report_time_below 'STALL at' 15 'the stall after the deadline'
}

# Issue 13 item 8: frames are named as the functions they are in, static
# ones included, with file:line from the debug information (libdw).
t_stall_backtraces_name_static_functions_with_file_and_line() {
	run --flavor busted-hang busted-hang.hang=sync --stall-timeout 1s --duration 30 --stat-interval 0
	expect_status 4
	local at='\+0x[0-9a-f]+ \[0x[0-9a-f]+\]'
	expect_out "^    #[0-9]+ busted_hang_worker$at flavors/busted/busted_hang\.c:[0-9]+\$"
	expect_out "^    #[0-9]+ busted_hang_synchronize$at flavors/busted/busted_hang\.c:[0-9]+\$"
	expect_out "^    #[0-9]+ thread_main$at torture/core/threads\.c:[0-9]+\$"
	expect_out "^    #[0-9]+ torture_reader$at torture/threads/reader\.c:[0-9]+\$"
	# A frame without file:line is a name libunwind checked, a guess
	# marked '?' with its object, or '??' with its object.
	local bad
	bad=$(grep -E '^    #[0-9]+ ' "$OUT" | grep -vE ':[0-9]+$' |
		grep -vE "^    #[0-9]+ [^ ?]+$at\$" | grep -vE "^    #[0-9]+ ([^ ]+\?|\?\?) \[0x[0-9a-f]+\]( in [^ ]+)?\$" | head -n 1)
	[[ -z $bad ]] || die "frame neither located, checked nor marked a guess: $bad"
}

# Issue 13 item 14: every task of the process gets a backtrace, labelled:
# torture threads with their role, the flavor's own threads with their
# name, the main thread.
t_stall_backtraces_every_thread_of_the_process() {
	run --flavor busted-hang busted-hang.hang=sync --stall-timeout 1s --duration 30 --stat-interval 0
	expect_status 4
	expect_out '^busted-hang-torture: backtrace of the main thread \(tid [0-9]+, the watchdog\):$'
	expect_out '^busted-hang-torture: backtrace of flavor thread busted-hang-gp \(tid [0-9]+\):$'
	expect_out '^busted-hang-torture: backtrace of writer 0 \(torture thread, tid [0-9]+\)'
	# The flavor thread's own stack, not a placeholder.
	sed -n '/backtrace of flavor thread busted-hang-gp/,/backtrace of/p' "$OUT" | grep -qE '^    #[0-9]+ busted_hang_worker\+0x' ||
		die "no stack for the flavor's thread"
}

# Issue 13 item 14: busted-hang.hang=lock hangs a barrier holding the
# flavor's lock; synchronize callers then wait behind it.  The cause named
# is the barrier (the oldest stuck operation), not the first victim of the
# thread table (writer 0 in synchronize); the victims are listed after it.
t_stall_names_the_oldest_operation_as_the_cause() {
	# The fake writers' barriers only (the default barrier test's driver
	# may be the oldest, which is also right but not what is asserted).
	run --flavor busted-hang busted-hang.hang=lock --stall-timeout 1s --duration 30 --stat-interval 0 --n-barrier-cbs 0
	expect_status 4
	expect_out '^busted-hang-torture: STALL at [0-9.]+ s: fakewriter [0-9]+ stuck in barrier for [0-9.]+ s '
	expect_out '^busted-hang-torture: also waiting \([1-9][0-9]*\): .*stuck in synchronize'
	local cause also
	cause=$(sed -n 's/.*STALL at [0-9.]* s: .* for \([0-9.]*\) s (--stall-timeout.*/\1/p' "$OUT")
	also=$(grep '^busted-hang-torture: also waiting' "$OUT" | grep -oE 'for [0-9.]+ s' | awk '{ print $2 }' | sort -g | tail -n 1)
	awk -v c="$cause" -v a="$also" 'BEGIN { exit !(c + 0 >= a + 0) }' ||
		die "the cause (stuck $cause s) is not the oldest (one waited $also s)"
	expect_out "^busted-hang-torture: First failure: at [0-9.]+ s, caught by: stall: fakewriter [0-9]+ stuck in barrier"
}

# Issue 13 item 15: a stats hook that blocks (busted-hang.hang=lock takes
# the lock the hung barrier holds) is waited for a bounded time, said so
# once and never called again: the watchdog still reports the stall.
t_blocking_stats_hook_does_not_stop_the_watchdog() {
	timeout -k 2 30 "$BIN" --flavor busted-hang busted-hang.hang=lock --stall-timeout 1s \
		--duration 30 --stat-interval 100ms >"$OUT" 2>"$ERR"
	STATUS=$?
	no_sanitizer_report
	expect_status 4
	expect_out '^busted-hang-torture: STALL at [0-9.]+ s: '
	expect_out '^busted-hang-torture: backtrace of '
	expect_out '^busted-hang-torture:--- End of test: STALL: '
	local n
	n=$(grep -c "^busted-hang-torture: (the flavor's stats hook did not return within 0.25 s: not called again in this run)\$" "$OUT")
	((n == 1)) || die "expected one 'did not return' line, got $n"
	expect_report_time_below 'STALL at' 15 'the stall'
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

# Issue 26 item 1: however CI stops the run, the report comes out.  A
# later second SIGINT during a shutdown that cannot finish (busted-hang's
# writer never stops) reports at once, without waiting for the thread,
# and exits with the verdict it announces.
t_second_sigint_reports_without_waiting() {
	: >"$OUT" # no Start line of an earlier run for wait_started
	"$BIN" --flavor busted-hang --duration 60 --stall-timeout 60s \
		--json "$TEST_TMP/h.json" >"$OUT" 2>"$ERR" &
	local pid=$! t0
	wait_started $pid
	sleep 1
	signal_child INT $pid
	sleep 0.5
	t0=$(now_ms)
	signal_child INT $pid
	wait $pid
	STATUS=$?
	no_sanitizer_report
	expect_out '^busted-hang-torture: SIGINT received, stopping$'
	expect_out '^busted-hang-torture: SIGINT again: reporting now, without waiting for [1-9][0-9]* threads? still running \((writer|fakewriter|final-gp|final-barrier) [0-9]'
	expect_out '^busted-hang-torture: the shutdown did not finish: callbacks still in flight are not counted as lost$'
	expect_out 'Reader Pipe:'
	local verdict
	verdict=$(sed -n 's/^busted-hang-torture:--- End of test: \([A-Z_]*\).*/\1/p' "$OUT")
	[[ -n $verdict ]] || die "no End line after the second SIGINT"
	[[ $(jqr "$TEST_TMP/h.json" .verdict) == "$verdict" ]] || die "JSON verdict differs from the End line's $verdict"
	[[ $STATUS == $(jqr "$TEST_TMP/h.json" .exit_status) ]] || die "exit status $STATUS, not the JSON's"
	# Without the second SIGINT's report the run waits out its 60 s; a
	# third of that is the load's margin (ASan, the suite beside it).
	(($(now_ms) - t0 < 20000)) || die "took $(($(now_ms) - t0)) ms after the second SIGINT"
}

# A stop that arrives as two signals at once (the child, then its
# group) is one request: the full shutdown, the final barrier included.
expect_one_request() { # flavor-prefix
	no_sanitizer_report
	expect_no_out 'again: reporting now'
	expect_out 'SIGTERM received, stopping'
	expect_out 'Callbacks: invoked: [0-9]+ early: 0 duplicate: 0 lost: 0'
	expect_out "^$1-torture:--- End of test: SUCCESS"
	[[ $(jqr "$TEST_TMP/s.json" .verdict) == SUCCESS ]] || die "no JSON verdict"
}

t_two_signals_at_once_are_one_request() {
	local round pid
	for round in 1 2 3; do
		: >"$OUT" # no Start line of an earlier run for wait_started
		"$BIN" --duration 0 --stat-interval 0 --json "$TEST_TMP/s.json" >"$OUT" 2>"$ERR" &
		pid=$!
		wait_started $pid
		sleep 1
		signal_child TERM $pid
		signal_child TERM $pid
		wait $pid
		STATUS=$?
		expect_status 0
		expect_one_request memb
	done
}

t_kill_to_the_process_group_gets_the_report() {
	: >"$OUT" # no Start line of an earlier run for wait_started
	setsid "$BIN" --duration 0 --stat-interval 0 --json "$TEST_TMP/s.json" >"$OUT" 2>"$ERR" &
	local pid=$!
	wait_started $pid
	sleep 1
	# What GNU timeout does: the child, then the whole group.
	signal_child TERM $pid
	signal_child_group TERM $pid
	wait $pid
	STATUS=$?
	expect_status 0
	expect_one_request memb
}

# A stop during the set-up, before the run's main loop takes signals:
# the run still takes it and reports.  The set-up here waits in opening
# the --json path, a FIFO nobody reads yet (a loaded machine's set-up is
# as slow): SIGTERM once the process holds SIGINT and SIGTERM blocked
# (/proc's SigBlk, bits 2 and 15), then a reader for the FIFO.  Before
# the fix the default action ended it (exit 143, no report).
t_sigterm_during_setup_gets_the_report() {
	local fifo=$TEST_TMP/json.fifo pid i blk reader
	mkfifo "$fifo" || die "mkfifo"
	"$BIN" --duration 0 --stat-interval 0 --json "$fifo" >"$OUT" 2>"$ERR" &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
		[[ -n $blk ]] && ((0x$blk & 0x4002 == 0x4002)) && break
		sleep 0.05
	done
	signal_child TERM $pid
	timeout 30 cat "$fifo" >"$TEST_TMP/s.json" &
	reader=$!
	wait $pid
	STATUS=$?
	wait $reader
	expect_status 0
	expect_one_request memb
}

# GNU timeout (its exit status 124 says it stopped the run), three times
# over since the race was one run in two, and with -k.
t_timeout_gets_the_report() {
	local round
	for round in 1 2 3; do
		timeout 1 "$BIN" --duration 0 --stat-interval 0 --json "$TEST_TMP/s.json" >"$OUT" 2>"$ERR"
		STATUS=$?
		expect_status 124
		expect_one_request memb
	done
	timeout -k 20 1 "$BIN" --duration 0 --stat-interval 0 --json "$TEST_TMP/s.json" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 124
	expect_one_request memb
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
TEST_LIMIT[t_many_readers_start_and_stop_within_seconds]=180
t_many_readers_start_and_stop_within_seconds() {
	local start=$SECONDS
	run --nreaders 1024 --duration 1 --stat-interval 0 --fwd-progress 0 -q
	expect_status 0
	expect_out '^memb-torture:--- End of test: SUCCESS: nreaders=1024 '
	# A bound against the hang it had, with the margin a loaded
	# machine needs to start and join 1024 threads (ASan lane).
	((SECONDS - start <= 60)) || die "1024 readers took $((SECONDS - start)) s"
	start=$SECONDS
	: >"$OUT" # no Start line of an earlier run for wait_started
	"$BIN" --nreaders 2048 --duration 60 --stat-interval 0 --fwd-progress 0 -q >"$OUT" 2>"$ERR" &
	local pid=$!
	wait_started $pid
	signal_child TERM $pid
	wait $pid
	STATUS=$?
	expect_status 0
	expect_out 'SIGTERM received, stopping'
	expect_out '^memb-torture:--- End of test: SUCCESS: nreaders=2048 '
	((SECONDS - start <= 60)) || die "SIGTERM during a 2048-reader run took $((SECONDS - start)) s"
}
