# Helpers for the integration tests.  Each test is a function t_NAME in a
# ci/integration/*.sh file; it runs with BIN (the binary under test) and
# TEST_TMP (a private folder) set, and fails by returning non-zero.
#
# A verdict must hold for every schedule: make check runs two lanes at
# once on two cores, and the flake finder adds busy loops (issue 45).
# So a test that needs a bug caught retries with new seeds (run_caught)
# within a budget of 20 or more times the idle time to catch; one that
# needs N events runs until it has them (run_until), not for a fixed
# duration; one about when something happened reads the report's own
# times (expect_report_time_below), not the test's wall clock; and a
# wall-clock bound is only a guard against a hang, far from what a
# loaded machine takes.  Speed targets are make bench's.

OUT=$TEST_TMP/out ERR=$TEST_TMP/err STATUS=0

# Seconds ci/run-tests gives a test (120 unless its file sets
# TEST_LIMIT[t_NAME]): for tests made of bounded detection runs.
declare -A TEST_LIMIT=()

# Tests that ci/run-tests runs against the normal build only
# (TEST_NORMAL_ONLY[t_NAME]=why, or TEST_FILE_NORMAL_ONLY=why for every
# test of a file): those that test scripts around the binary (the
# campaign runner, the minimizer, the kernel's parsers) with runs of it
# along paths other ASan+UBSan tests already take; a second lane of the
# same runs added minutes to make check and no check.
declare -A TEST_NORMAL_ONLY=()
TEST_FILE_NORMAL_ONLY=

# The source tree's lock: ci/run-tests --jobs 2 runs two tests at once,
# and make in the tree (or filling a cache the labels share) must not
# meet another.  run-tests sets TREE_LOCK; a test run alone has its own.
: "${TREE_LOCK:=$TEST_TMP/tree.lock}"

# Run a command holding it.
tree_locked() { # command...
	flock "$TREE_LOCK" "$@"
}

# Fail the test with a message.
die() {
	echo "FAIL: $*"
	echo "--- stdout (tail):"; tail -n 25 "$OUT" 2>/dev/null
	echo "--- stderr (tail):"; tail -n 25 "$ERR" 2>/dev/null
	exit 1
}

# Run the binary under test; stdout to $OUT, stderr to $ERR, status to
# $STATUS.  A sanitizer report anywhere fails the test.
run() {
	"${RUN_PREFIX[@]}" "$BIN" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
	no_sanitizer_report
}
RUN_PREFIX=(env)

no_sanitizer_report() {
	if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer' "$ERR" "$OUT"; then
		die "sanitizer report"
	fi
}

expect_status() { # N
	[[ $STATUS == "$1" ]] || die "exit status $STATUS, expected $1"
}

expect_out() { # extended regex that stdout must match
	grep -qE -- "$1" "$OUT" || die "stdout lacks /$1/"
}

# The number after "<label>" on the summary line that starts with it.
summary_value() { # label
	sed -n "s/^$1 \([0-9.e+]*\).*/\1/p" "$OUT" | head -n 1
}

# One short run per --gp-KIND for a flavor: each ends SUCCESS.
expect_each_gp_primitive_succeeds() { # flavor
	local k
	for k in sync exp normal cond poll; do
		run --flavor "$1" --gp-$k --duration 1 --stat-interval 0
		expect_status 0
		expect_out 'End of test: SUCCESS'
	done
}

# A run on 8 simulated CPUs with CPU offline every 20 ms, the barrier
# test and a callback flood, until the flood is done (1 s of holdoff and
# the flood: about 4 s idle, longer on a loaded machine): SUCCESS, every
# barrier and callback accounted.
expect_survives_onoff_barrier_and_flood() { # flavor [flavor parameters...]
	run_until "grep -q '^$1-torture: fwd_prog_cr 0: ' \"\$OUT\"" --flavor "$@" --cpus 8 \
		--onoff-interval 20ms --n-barrier-cbs 4 --fwd-progress 1 \
		--fwd-progress-holdoff 1s --duration 60 --stat-interval 0
	expect_status 0
	expect_out "^$1-torture:--- End of test: SUCCESS"
	expect_out 'barrier: ([0-9]+)/\1:0 '
	expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
	expect_out "^$1-torture: fwd_prog_cr 0: "
}

# The checks that catch a grace period that ends too soon, any of which
# may fire first: the readers' (too-short grace period, rtmbe), the
# writer's witness of readers older than its wait (early grace period),
# the callbacks' (early callback) and the polled cookies' (cookie check).
# Two of them often race to catch one bug: a test of detection accepts
# any, a test of one check asserts that check failed (expect_check_failed).
SHORT_GP_CHECKS='too-short grace period|early grace period|early callback|rtmbe|cookie check'
# What a stall report adds after "stuck in OP for X s" when the thread
# also waited behind readers the machine kept from their CPUs (not
# counted in X: core/watchdog.c), as an optional regex group.
BEHIND_READERS='( \(and [0-9.]+ s behind readers waiting for a CPU\))?'

# The run's first failure was caught by a check matching the regex.
expect_first_check() { # check-regex
	expect_out "^[^ ]+-torture: First failure: at [0-9.]+ s, caught by: ($1)\$"
}

# A check failed during the run, whether or not it was the first: its
# "Failed check:" line, whose first message matches the regex.
expect_check_failed() { # check [message-regex]
	expect_out "^[^ ]+-torture: Failed check: $1: [1-9][0-9]* failures? from [0-9.]+ s, first: ${2:-.*}\$"
}

expect_no_out() { # extended regex that stdout must not match
	! grep -qE -- "$1" "$OUT" || die "stdout has /$1/: $(grep -m1 -E -- "$1" "$OUT")"
}

expect_err() { # extended regex that stderr must match
	grep -qE -- "$1" "$ERR" || die "stderr lacks /$1/"
}

# Bad input: exit 2 with one line on stderr, nothing run or printed.
bad_input() { # regex-of-message args...
	local msg=$1
	shift
	run "$@"
	expect_status 2
	expect_err "^rcutorture: .*$msg"
	(($(wc -l <"$ERR") == 1)) || die "expected a one-line error, got $(wc -l <"$ERR")"
	[[ ! -s $OUT ]] || die "printed to stdout before failing: $(head -n 1 "$OUT")"
}

# The last "Reader Pipe:" line's slot N (0-based).
pipe_slot() { # N
	grep 'Reader Pipe:' "$OUT" | tail -n 1 | sed 's/.*Reader Pipe: *//' | awk -v n="$1" '{print $(n + 1)}'
}

# Sum of the last "Reader Pipe:" line's slots 2..10.
pipe_late_sum() {
	grep 'Reader Pipe:' "$OUT" | tail -n 1 | sed 's/.*Reader Pipe: *//' | awk '{s = 0; for (i = 3; i <= NF; i++) s += $i; print s}'
}

# Milliseconds since the epoch, for bounding how long something took.
now_ms() {
	echo $((${EPOCHREALTIME/./} / 1000))
}

# Whether the run's own clock puts EVENT (a regex before " (at )?X s",
# "STALL at" or "Rates over") before LIMIT seconds: the report's times,
# not the test's wall clock, which also counts the start and the
# teardown a loaded machine stretches (issue 45 item 3).
expect_report_time_below() { # event-regex limit what
	local t
	t=$(grep -oE "$1 [0-9.]+ s" "$OUT" | tail -n 1 | grep -oE '[0-9.]+ s$' | cut -d' ' -f1)
	[[ -n $t ]] || die "no '$1 <time> s' in the report"
	awk -v t="$t" -v l="$2" 'BEGIN { exit !(t + 0 < l + 0) }' || die "$3 at $t s in the report, not before $2 s"
}

# The plugins built by `make plugins` (ci/plugins/), for plugin tests.
PLUGINS=${PLUGINS:-build/plugins}

# A jq filter's raw output for a JSON file; fails the test if the file is
# not valid JSON.
jqr() { # file filter
	jq -er "$2" "$1" 2>&1 || die "jq '$2' on $1 failed: $(jq -r "$2" "$1" 2>&1 | head -n 3)"
}

# The last value of the text report's "NAME: N" field (e.g. ver).
text_field() { # name
	grep -o " $1: [0-9]*" "$OUT" | tail -n 1 | awk '{print $2}'
}

# Run a detection run (one with --stop-on-failure and a --duration that
# bounds it) up to TRIES times until it ends in anything but SUCCESS;
# like run, with the last run's output in $OUT and $ERR.  Catching a
# race needs the racing threads on the CPUs together: idle, the first
# run catches it in seconds; beside other processes that want the CPUs
# (issue 29's busy rounds) one bounded run can miss.  Try i runs with
# the given --seed plus i - 1: a seed whose draws miss under one
# schedule tends to miss under the next (a CI run missed flip-once with
# seed 1 twice), so each try is a new draw.  A broken detector misses
# every try, so the test still fails; the bound grows, the check does
# not.  The misses go to $TEST_TMP/misses for the failure message.
# Where the runner may (root, as CI is), the tries run at nice -10: the
# suite's other lane and busy loops took the CPUs from them, and the
# detection with them (beside two busy loops and another run,
# writer-nofence-sb --hunt missed seeds 3 and 4 in 60 s each at nice 0,
# caught them in 12 and 17 s at nice -10; idle, 6 to 8 s).  What a test
# asserts is that the tool catches the bug, not how fast on a busy
# machine (make bench's figures say that).  RUN_CAUGHT_WITH names
# another runner than run (tsan_run, which expects sanitizer reports).
run_caught() { # tries args...
	local tries=$1 i j RUN_PREFIX=(env)
	shift
	local given=("$@") args
	[[ $(nice -n -10 nice 2>/dev/null) == -10 ]] && RUN_PREFIX=(nice -n -10)
	: >"$TEST_TMP/misses"
	for ((i = 1; i <= tries; i++)); do
		args=("${given[@]}")
		for ((j = 0; j < ${#args[@]} - 1; j++)); do
			if [[ ${args[j]} == --seed ]]; then
				args[j + 1]=$((given[j + 1] + i - 1))
			fi
		done
		"${RUN_CAUGHT_WITH:-run}" "${args[@]}"
		[[ $STATUS == 0 ]] || return 0
		echo "try $i of $tries: SUCCESS, not caught: $(grep -m1 'End of test' "$OUT")" >>"$TEST_TMP/misses"
	done
	cat "$TEST_TMP/misses"
}

# Send SIG to PID only if it is still this shell's child: bash reaps a
# background child as soon as it ends, and with pid_max 32768 the suite's
# other lane can start a process under the same PID, which a late kill
# would then stop (a SIGINT to another test's timeout stops that whole
# test: its run and its shell's wait, exit 130).
signal_child() { # SIG PID
	local stat
	stat=$(cat "/proc/$2/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	set -- "$1" "$2" $stat
	[[ $4 == "$BASHPID" ]] || return 1
	kill -"$1" "$2" 2>/dev/null
}

# Send SIG to the process group PID leads, only while PID is still this
# shell's child and that group's leader: once it has ended, the number may
# lead another group, such as the other lane's GNU timeout (setpgid), which
# passes a signal on to its whole test.
signal_child_group() { # SIG PID
	local stat
	stat=$(cat "/proc/$2/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	set -- "$1" "$2" $stat
	[[ $4 == "$BASHPID" && $5 == "$2" ]] || return 1
	kill -"$1" -- -"$2" 2>/dev/null
}

# Run the binary under test until a condition on its output holds (a
# command, tried every 0.2 s; the run needs a short --stat-interval for
# the counts to show), then stop it with SIGINT as a user would; like run.
# For tests that need some number of events: they get them however slow
# the machine is, where a fixed --duration gives a count that depends on
# the load.  The run's own --duration bounds the wait.
run_until() { # condition args...
	local cond=$1 pid
	shift
	# Emptied here first: the child's own truncation may come after the
	# condition has read the last run's lines (t_onoff_cycles_succeed's
	# second run was stopped at 0.01 s by the first one's stats).
	: >"$OUT"
	: >"$ERR"
	"$BIN" "$@" >"$OUT" 2>"$ERR" &
	pid=$!
	while kill -0 $pid 2>/dev/null && ! eval "$cond"; do
		sleep 0.2
	done
	signal_child INT $pid
	wait $pid
	STATUS=$?
	no_sanitizer_report
}

# Wait until the run in the background (stdout in $OUT, emptied before
# it was started: the shell truncates it in the child, after this may
# have read an earlier run's lines) has printed its Start line, or has
# ended; at most 60 s.  From that line on SIGINT and
# SIGTERM are the run's to handle; one sent before it, while a loaded
# machine still runs the start-up, ends the process by the signal's
# default action (exit 143 at load 160, one second after its start).
wait_started() { # pid
	local i
	for ((i = 0; i < 1200; i++)); do
		grep -q -- '--- Start of test' "$OUT" 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.05
	done
}

# Run the binary under test in the background, send it SIGINT a second
# after its Start line,
# and wait for it: like run, for tests of what an interrupt leaves behind.
run_interrupted() {
	: >"$OUT" # no Start line of an earlier run for wait_started
	"$BIN" "$@" >"$OUT" 2>"$ERR" &
	local pid=$!
	wait_started $pid
	sleep 1
	signal_child INT $pid
	wait $pid
	STATUS=$?
	no_sanitizer_report
}
