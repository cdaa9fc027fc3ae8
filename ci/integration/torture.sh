# Integration tests: whole torture runs and their verdicts.

t_memb_succeeds() {
	# Two periodic blocks and the final one asked of 4 s at 1 s: a margin
	# for a starved stats thread.
	run --flavor memb --duration 4 --stat-interval 1 --seed 1
	expect_status 0
	expect_out '^memb-torture:--- Start of test: .*seed=1 '
	expect_out '^memb-torture:--- End of test: SUCCESS: '
	expect_out '^memb-torture: First failure: none$'
	expect_no_out '!!!'
	(($(grep -c 'Reader Pipe:' "$OUT") >= 3)) || die "expected periodic stats blocks"
	(($(pipe_slot 0) > 0)) || die "pipe stage 0 count is zero"
	(($(pipe_slot 1) > 0)) || die "pipe stage 1 count is zero"
	(($(pipe_late_sum) == 0)) || die "pipe stages >= 2 are non-zero"
	expect_out '^memb-torture: Free-Block Circulation:  [1-9][0-9]* .* 0$'
	expect_out '^memb-torture: Rates over [0-9.]+ s: reads/s: [1-9][0-9]* updates/s: [1-9]'
	# The memory-ordering check runs (tries) and passes (no failures).
	expect_out ' rtmbkf: 0/[1-9][0-9]* '
}

t_busted_fails() {
	run --flavor busted --duration 3
	expect_status 1
	expect_out '^busted-torture: !!! Reader Pipe: '
	expect_out '^busted-torture: !!! first failure at [0-9.]+ s: '
	expect_out '^busted-torture: First failure: at [0-9.]+ s, caught by: '
	expect_out '^busted-torture:--- End of test: FAILURE: '
	(($(pipe_late_sum) > 0)) || die "busted showed no pipe stage >= 2"
}

# Issue 26 item 9: the early-grace-period message names the primitive
# in words ("an expedited synchronize", not "a exp grace-period wait").
t_early_gp_message_names_the_primitive() {
	run --flavor busted --gp-exp --nfakewriters 0 --duration 2 --stat-interval 0
	expect_status 1
	expect_check_failed 'early grace period' 'an expedited synchronize returned while reader [0-9]+ was still in the read-side section it was in before the wait began'
	run --flavor busted --gp-sync --nfakewriters 0 --duration 2 --stat-interval 0
	expect_status 1
	expect_check_failed 'early grace period' 'a synchronize returned while reader [0-9]+ was still in the read-side section it was in before the wait began'
}

t_busted_stop_on_failure_stops_early() {
	run --flavor busted --duration 60 --stop-on-failure
	expect_status 1
	expect_out 'End of test: FAILURE'
	expect_report_time_below 'Rates over' 60 'the run ended'
}

t_final_report_comes_at_the_deadline() {
	local t0=$(now_ms)
	run --duration 2 --stat-interval 0 --nreaders 3 --nfakewriters 8
	local took=$(($(now_ms) - t0))
	expect_status 0
	# A bound against threads the deadline does not stop (a speed target
	# would be make bench's): ten times the run, for a loaded machine.
	((took < 20000)) || die "2 s run took ${took} ms"
	(($(grep -c 'Reader Pipe:' "$OUT") == 1)) || die "stat-interval 0 printed periodic blocks"
}

# A signal mid-run: the full final report, the usual verdict, promptly.
signal_stops_gracefully() { # SIG
	: >"$OUT" # no Start line of an earlier run for wait_started
	"$BIN" --duration 60 --stat-interval 0 >"$OUT" 2>"$ERR" &
	local pid=$! t0
	wait_started $pid
	sleep 1
	t0=$(now_ms)
	signal_child "$1" $pid
	wait $pid
	STATUS=$?
	local took=$(($(now_ms) - t0))
	no_sanitizer_report
	expect_status 0
	expect_out "SIG$1 received, stopping"
	expect_out 'Reader Pipe:'
	expect_out 'Free-Block Circulation:'
	expect_out 'End of test: SUCCESS'
	# Ignored, the signal leaves the run its 60 s: a third of that is the
	# load's margin.
	((took < 20000)) || die "took ${took} ms to stop after SIG$1"
}

t_sigint_gives_full_report() {
	signal_stops_gracefully INT
}

t_sigterm_gives_full_report() {
	signal_stops_gracefully TERM
}

t_quiet_prints_only_final_block() {
	run --duration 2 --stat-interval 200ms --quiet
	expect_status 0
	(($(grep -c 'Reader Pipe:' "$OUT") == 1)) || die "quiet run printed periodic blocks"
	expect_out 'End of test: SUCCESS'
}

t_kernel_style_parameters() {
	run rcutorture.torture_type=busted rcutorture.shutdown_secs=2 rcutorture.nreaders=1 rcutorture.nfakewriters=0
	expect_status 1
	expect_out '^busted-torture:--- Start of test: nreaders=1 nfakewriters=0 '
}

t_zero_fakewriters_and_many_readers() {
	run --duration 2 --nreaders 8 --nfakewriters 0
	expect_status 0
	expect_out '^memb-torture:--- Start of test: nreaders=8 nfakewriters=0 '
}

# --reader-nesting: the depth shows in the Start line, 0 and 65 are usage
# errors, and liburcu's memb survives sections nested 64 deep.
t_reader_nesting() {
	run --reader-nesting 0 --dry-run
	expect_status 2
	expect_err "^rcutorture: --reader-nesting: '0' is not valid; expected an integer from 1 to 64$"
	run --reader-nesting 65 --dry-run
	expect_status 2
	run --flavor memb --reader-nesting 64 --duration 2 --stat-interval 0 --seed 7
	expect_status 0
	expect_out '^memb-torture:--- End of test: SUCCESS: .* reader_nesting=64( |$)'
}

# Issue 13 item 10: rcutorture.stutter is the kernel's, which pauses the
# test first; --stutter lets it run first.  In a 0.8 s run with a 1 s
# stutter the writer barely starts under the kernel's spelling.
t_kernel_stutter_pauses_first() {
	run rcutorture.stutter=1 --duration 0.8 --stat-interval 0 --nfakewriters 0 --read-exit-burst 0 --fwd-progress 0
	expect_status 0
	local paused=$(grep 'ver:' "$OUT" | tail -n 1 | sed 's/.* ver: \([0-9]*\) .*/\1/')
	((paused <= 3)) || die "rcutorture.stutter=1: the writer made $paused updates in its pause"
	run --stutter 1 --duration 0.8 --stat-interval 0 --nfakewriters 0 --read-exit-burst 0 --fwd-progress 0
	expect_status 0
	local ran=$(grep 'ver:' "$OUT" | tail -n 1 | sed 's/.* ver: \([0-9]*\) .*/\1/')
	((ran > 3)) || die "--stutter 1: only $ran updates while running"
}

# Issue 13 item 12: under a terminal (script(1) gives the run a pty) a
# quiet run, and a scale run, print a progress line on standard error at
# most once per --stat-interval; with stderr a file they print nothing
# extra.  Every periodic stats block starts with the elapsed time.
# TERM=dumb: a terminal that cannot redraw a line, so no live line.
run_on_a_terminal() { # options...
	command -v script >/dev/null || die "script(1) (bsdutils) is needed"
	TERM=${LIVE_TERM:-dumb} script -qec "$BIN $*" /dev/null >"$OUT" 2>"$ERR" </dev/null
	STATUS=$?
}

# At least one progress line, and no more than one per interval: n lines,
# the last at T s, fit in T / interval + 1 (a loaded machine stretches a
# run past its length, so T, not the length, bounds them).
expect_progress_lines() { # prefix total interval
	local n last
	n=$(grep -cE "^$1: progress: [0-9.]+ s of $2 s.?\$" "$OUT")
	last=$(grep -oE "^$1: progress: [0-9.]+" "$OUT" | tail -n 1 | grep -oE '[0-9.]+$')
	((n >= 1)) || die "no progress line: $(head -c 300 "$OUT")"
	awk -v n="$n" -v t="$last" -v i="$3" 'BEGIN { exit !(n <= int(t / i) + 1) }' ||
		die "$n progress lines by $last s at $3 s intervals"
}

t_progress_line_on_a_terminal() {
	run_on_a_terminal -q --duration 3 --stat-interval 1s
	expect_status 0
	expect_progress_lines memb-torture '3\.0' 1
	run_on_a_terminal --test scale --holdoff 0 --duration 2 --nreaders 0 --stat-interval 700ms
	expect_status 0
	expect_progress_lines memb-scale '2\.0' 0.7
	# Not a terminal: nothing on stderr.
	run -q --duration 2 --stat-interval 500ms
	expect_status 0
	[[ ! -s $ERR ]] || die "stderr not empty: $(head -n 1 "$ERR")"
	expect_no_out 'progress:'
	run --test scale --holdoff 0 --duration 1 --nreaders 0 --stat-interval 300ms
	expect_status 0
	[[ ! -s $ERR ]] || die "stderr not empty: $(head -n 1 "$ERR")"
}

# Issue 26 item 8: on a terminal that can redraw a line, a live line
# ("running 1.0 s of 3.0 s") from the first second on, before the first
# stats block, redrawn in place, and erased before each other line: the
# log without the live lines is the log of a run without a terminal.
t_live_progress_line_on_a_terminal() {
	LIVE_TERM=xterm run_on_a_terminal --duration 5 --stat-interval 2s
	expect_status 0
	local live=$'\r\e\\[Kmemb-torture: running [0-9]+\\.[0-9] s of 5\\.0 s'
	grep -qE "^${live}" "$OUT" || die "no live line: $(cat -v "$OUT" | head -c 600)"
	# The first live line comes before the first stats block.
	awk -v l="running [0-9]+\\\\.[0-9] s of 5\\\\.0 s" '$0 ~ l { print "live"; exit } /: rtc: / { print "rtc"; exit }' "$OUT" |
		grep -qx live || die "the first stats block came before a live line"
	# Redrawn each second: three of the five asked for (a margin for a
	# starved thread).
	(($(grep -oE "running [0-9.]+ s of 5\.0 s" "$OUT" | wc -l) >= 3)) || die "not redrawn every second"
	# Without the live lines (each erased by the \r ESC[K before the next
	# text), every line is a log line: nothing was written over one.
	sed -E "s/${live}//g; s/\r\x1b\[K//g; s/\r$//" "$OUT" >"$TEST_TMP/clean"
	grep -vE '^memb-torture:' "$TEST_TMP/clean" | grep -q . &&
		die "a line that is not the log's: $(grep -vE '^memb-torture:' "$TEST_TMP/clean" | head -n 1 | cat -v)"
	grep -q 'running' "$TEST_TMP/clean" && die "a live line left in the log"
	(($(grep -c -- '--- End of test: SUCCESS' "$TEST_TMP/clean") == 1)) || die "not one End line"
	# The last live line is erased before the report: the output ends
	# with the End line, not with a live line.
	tail -c 300 "$OUT" | grep -q 'running' && die "the output ends with a live line"
	# -q: the live line too, and nothing else but the report's lines.
	LIVE_TERM=xterm run_on_a_terminal -q --duration 2 --stat-interval 1s
	expect_status 0
	grep -qE "${live%5*}2\\.0 s" "$OUT" || die "-q: no live line"
	expect_no_out 'progress:'
	# A terminal that cannot redraw, and no terminal: no escape sequence.
	run_on_a_terminal --duration 2 --stat-interval 1s
	grep -q $'\e' "$OUT" && die "TERM=dumb: an escape sequence"
	run --duration 1 --stat-interval 500ms
	grep -q $'\e' "$OUT" && die "not a terminal: an escape sequence"
	true
}

t_stats_blocks_start_with_the_elapsed_time() {
	run --duration 2 --stat-interval 500ms
	expect_status 0
	# Every periodic block (all but the final one) follows an Elapsed line.
	awk '/^memb-torture: Elapsed: [0-9.]+ s of 2\.000 s$/ { e = 1; next }
	     /^memb-torture: rtc: / { n++; if (e) h++; e = 0 }
	     END { exit !(n >= 2 && h == n - 1) }' "$OUT" ||
		die "a periodic stats block without its Elapsed line"
	run_on_a_terminal --duration 2 --stat-interval 500ms
	expect_no_out 'progress:'
}
