# Integration tests: --minimize (issue 18 item 2), on the busted flavors,
# whose failures come in milliseconds.

# The command the minimizer ended with, the program name cut off.
minimized_args() {
	local line
	line=$(grep -A1 '^minimize: smallest failing command found' "$OUT" | tail -n 1)
	[[ $line == "rcutorture "* ]] || die "no minimized command"
	echo "${line#rcutorture }"
}

# CPU offlining is the bug's: dropping --onoff-interval is tried and
# rejected (the run then passes, every time), and so is one CPU (no
# hotplug with one); the rest goes, and the counts are halved.
# A whole search, run after run of one busted flavor (34 s, as long
# again under ASan): the other minimize tests take its paths under ASan.
TEST_NORMAL_ONLY[t_minimize_keeps_what_the_bug_needs_and_halves_counts]="a whole search of one flavor"
t_minimize_keeps_what_the_bug_needs_and_halves_counts() {
	run --flavor busted-hotplug --onoff-interval 20ms --cpus 4 --stutter 300ms --read-exit-burst 4 \
		--duration 3 --seed 1 --stat-interval 0 --minimize --minimize-runs 2 --minimize-fails 2
	expect_status 0
	expect_out '^minimize: trial 1: the command as given: failed 2 of 2 runs$'
	expect_out '^minimize: the failure: exit 3 \(RCU_HOTPLUG\); first check of the first failing run: CPU hotplug$'
	expect_out '^minimize: \[[0-9.]+s of 600s\] trial [0-9]+: without .*: kept$'
	expect_out 'trial [0-9]+: without --onoff-interval=20ms: failed 0 of 1 runs: rejected$'
	expect_out 'trial [0-9]+: --cpus=1 instead of --cpus=2: failed 0 of 1 runs: rejected$'
	expect_out 'trial [0-9]+: --onoff-interval=10ms instead of --onoff-interval=20ms: failed 2 of 2 runs: kept$'
	local args
	args=$(minimized_args)
	[[ $args =~ ^--flavor=busted-hotplug\ --seed=1\ --cpus=2\ --onoff-interval=[0-9]+(us|ms)\ --stop-on-failure$ ]] ||
		die "minimized to: $args"
	expect_out '^minimize: smallest failing command found \(5 arguments, was 9\):$'
	expect_out '^minimize: it failed in ([0-9]+) of \1 confirmation runs \(RCU_HOTPLUG; the baseline.s first check: CPU hotplug\); time to fail: median [0-9.]+ s, max [0-9.]+ s$'
	# The result, pasted, fails the same way.
	eval "run $args --json $TEST_TMP/m.json"
	expect_status 3
	[[ $(jqr "$TEST_TMP/m.json" .first_failure.check) == "CPU hotplug" ]] || die "pasted: $(jqr "$TEST_TMP/m.json" .first_failure)"
}

# The barrier test is on by default (one poster): a barrier bug's
# command minimizes to no --n-barrier-cbs at all, and still fails so.
t_minimize_drops_the_barrier_test_option_the_default_runs() {
	run --flavor busted-barrier --n-barrier-cbs 4 --cpus 4 --stutter 300ms --read-exit-burst 4 \
		--duration 5 --seed 1 --stat-interval 0 --minimize --minimize-runs 2 --minimize-fails 2
	expect_status 0
	expect_out '^minimize: the failure: exit 1 \(FAILURE\); first check of the first failing run: rtbe$'
	local args
	args=$(minimized_args)
	[[ $args =~ ^--flavor=busted-barrier\ --seed=1\ --cpus=[12]\ --stop-on-failure$ ]] || die "minimized to: $args"
	eval "run $args --json $TEST_TMP/m.json"
	expect_status 1
	[[ $(jqr "$TEST_TMP/m.json" .first_failure.check) == rtbe ]] || die "pasted: $(jqr "$TEST_TMP/m.json" .first_failure)"
	[[ $(jqr "$TEST_TMP/m.json" .config.n_barrier_cbs) == 1 ]] || die "pasted: n_barrier_cbs is not 1"
}

t_minimize_swarm_turns_drawn_features_off() {
	run --flavor busted --swarm --seed 5 --cpus 2 --duration 3 --stat-interval 0 \
		--minimize --minimize-runs 2 --minimize-fails 2
	expect_status 0
	# Each feature the draw turned on was tried off; busted fails anyway.
	expect_out 'trial [0-9]+: swarm feature [a-z]+ off \(--[a-z-]+=[0-9]+\): failed 2 of 2 runs: kept$'
	local args
	args=$(minimized_args)
	[[ $args == "--flavor=busted "* && $args == *"--seed=5"* ]] || die "minimized to: $args"
	eval "run $args"
	expect_status 1
}

t_minimize_budget_bounds_the_search() {
	local t0 t1
	# A command that does not fail: the baseline's run is cut by the
	# budget, nothing is counted, nothing reported as failing.
	t0=$(date +%s%N)
	run --flavor memb --duration 20 --stat-interval 0 --minimize --minimize-budget 2s
	t1=$(date +%s%N)
	expect_status 1
	expect_out 'the command failed in 0 of 0 runs before the budget ran out; expected 4: nothing to minimize$'
	expect_no_out 'smallest failing command'
	# Uncut, the run is 20 s: the budget plus a loaded machine's margin.
	(((t1 - t0) / 1000000 < 12000)) || die "took $(((t1 - t0) / 1000000)) ms with a 2 s budget"
	# A failing command with more to try than the budget allows: it stops
	# in time and prints a command it saw fail.
	t0=$(date +%s%N)
	run --flavor busted-hotplug --cpus 8 --stutter 300ms --read-exit-burst 4 --n-barrier-cbs 8 \
		--nfakewriters 2 --onoff-interval 50ms --duration 5 --seed 2 --stat-interval 0 \
		--minimize --minimize-budget 4s --minimize-runs 1 --minimize-fails 1
	t1=$(date +%s%N)
	expect_status 0
	expect_out '\(the budget ran out\)$'
	# Uncut, the baseline and the search's runs of 5 s each: the budget
	# plus a loaded machine's margin.
	(((t1 - t0) / 1000000 < 14000)) || die "took $(((t1 - t0) / 1000000)) ms with a 4 s budget"
	eval "run $(minimized_args)"
	expect_status 3
}

t_minimize_bad_input_exits_2() {
	bad_input "--minimize: only for a --test torture run, without --json or --dry-run" \
		--flavor busted --minimize --json "$TEST_TMP/x.json"
	bad_input "--minimize-fails: '0' is not valid; expected an integer from 1 to 100" --minimize --minimize-fails 0
	bad_input "--minimize-budget: '500ms' is out of range; expected 1s to 1d" --minimize --minimize-budget 500ms
	bad_input "--minimize-runs: only for --test torture, not --test ref" --test ref --minimize-runs 3
}
