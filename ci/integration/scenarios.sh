# Integration tests: scenario files (--scenario, ci/scenarios/) and the
# batch runner ci/run-scenarios.

t_scenario_by_name_and_override() {
	run --scenario QSBR-ONOFF --duration 1.5 --stat-interval 0 --cpus 4
	expect_status 0
	expect_out '^qsbr-torture:--- Start of test: .* call_rcu=percpu .* cpus=4 .* onoff_interval=50ms '
	expect_out "^qsbr-torture: scenario QSBR-ONOFF from .*/ci/scenarios/QSBR-ONOFF, expected verdict SUCCESS$"
	expect_out '^qsbr-torture:--- End of test: SUCCESS'
	# Options before --scenario are overridden by it.
	run --cpus 3 --scenario QSBR-ONOFF --dry-run
	expect_status 0
	expect_out ' cpus=8 '
}

t_scenario_file_and_env_dir() {
	printf '# mine\n#EXPECT: FAILURE\n--flavor busted --stop-on-failure\n\nrcutorture.nreaders=3\n' >"$TEST_TMP/MINE"
	run --scenario "$TEST_TMP/MINE" --duration 3 --json "$TEST_TMP/m.json"
	expect_status 1
	expect_out "^busted-torture: scenario $TEST_TMP/MINE from $TEST_TMP/MINE, expected verdict FAILURE$"
	expect_out ' nreaders=3 '
	jqr "$TEST_TMP/m.json" '.scenario.expect == "FAILURE" and .scenario.name == .scenario.path' >/dev/null
	RCUTORTURE_SCENARIO_DIR="/nonexistent:$TEST_TMP" run --scenario MINE --dry-run
	expect_status 0
	expect_out "scenario MINE from $TEST_TMP/MINE, expected verdict FAILURE"
}

t_scenario_errors_are_one_line_with_file_and_line() {
	local f=$TEST_TMP/BAD
	printf -- '--flavor qsbr\n# fine so far\n--onoff-interval soon\n' >"$f"
	bad_input "$f:3: --onoff-interval: 'soon' is not a duration" --scenario "$f"
	printf -- '#EXPECT: PERHAPS\n' >"$f"
	bad_input "$f:1: #EXPECT: 'PERHAPS' is not valid; expected SUCCESS, FAILURE, RCU_HOTPLUG or STALL" --scenario "$f"
	printf -- '--nreaders 2\n--scenario MEMB01\n' >"$f"
	bad_input "$f:2: --scenario: a scenario file cannot name another scenario" --scenario "$f"
	printf -- 'memb.nosuch=1\n' >"$f"
	bad_input "memb: unknown parameter 'nosuch'" --scenario "$f"
	bad_input "--scenario: no scenario 'NOSUCH' in .*ci/scenarios" --scenario NOSUCH
	bad_input "--scenario: '/dev/null' is not a regular file" --scenario /dev/null
	bad_input "--scenario: cannot open '$TEST_TMP/none'" --scenario "$TEST_TMP/none"
}

t_every_shipped_scenario_parses() {
	local f name expect
	for f in ci/scenarios/*; do
		name=${f##*/}
		run --scenario "$name" --dry-run
		expect_status 0
		expect=$(sed -n 's/^#EXPECT: *//p' "$f")
		[[ -n $expect ]] || die "$name has no #EXPECT line"
		expect_out "scenario $name from .*/ci/scenarios/$name, expected verdict $expect$"
		# Negative controls and reproductions of known bugs, and only
		# they, expect to fail; deliberate stalls expect a STALL.
		if [[ $name == STALL-* ]]; then
			[[ $expect == STALL ]] || die "$name expects $expect"
		elif [[ $name == BUSTED* || $name == *-RFC2018 || $name == BUG-* ]]; then
			[[ $expect != SUCCESS ]] || die "$name expects SUCCESS"
		else
			[[ $expect == SUCCESS ]] || die "$name expects $expect"
		fi
	done
}

# The runner against the binary under test, results in $TEST_TMP/res.
runner() {
	ci/run-scenarios --bin "$BIN" --results "$TEST_TMP/res" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
}

t_runner_summary_and_exit_status() {
	runner --duration 2s --jobs 2 "2*MEMB01 BUSTED" QSBR-ONOFF
	expect_status 0
	expect_out '^--- batch 1: MEMB01 MEMB01.2$'
	expect_out '^--- batch 2: BUSTED QSBR-ONOFF$'
	expect_out '^scenario +verdict +expected +GPs \(ver\) +GPs/s +first failure$'
	expect_out '^MEMB01 +SUCCESS +SUCCESS +[1-9][0-9]* +[0-9.]+ +none$'
	expect_out '^MEMB01.2 +SUCCESS +SUCCESS '
	expect_out '^BUSTED +FAILURE +FAILURE +[0-9]+ +[0-9.]+ +[0-9.]+ s: '
	expect_out '^all 4 runs ended as expected$'
	local d
	for d in MEMB01 MEMB01.2 BUSTED QSBR-ONOFF; do
		[[ -s $TEST_TMP/res/$d/console.log && -s $TEST_TMP/res/$d/cmd ]] || die "$d: no console.log or cmd"
		jq -e . "$TEST_TMP/res/$d/run.json" >/dev/null || die "$d: no valid run.json"
	done
	# The table's figures are the run's own.
	[[ $(jqr "$TEST_TMP/res/MEMB01.2/run.json" .final.ver) == \
		"$(awk '$1 == "MEMB01.2" {print $4}' "$OUT")" ]] || die "GPs (ver) differ from the JSON"
	[[ $(cat "$TEST_TMP/res/BUSTED/exit-status") == 1 ]] || die "BUSTED exit status not kept"
	diff <(sed -n '/^scenario /,$p' "$OUT") "$TEST_TMP/res/summary" >/dev/null || die "summary file differs"
}

t_runner_unexpected_verdict_exits_1() {
	mkdir -p "$TEST_TMP/sc"
	printf -- '--flavor busted --stop-on-failure\n' >"$TEST_TMP/sc/LIAR"
	printf -- '#EXPECT: STALL\n--flavor busted-hang busted-hang.hang=sync --stall-timeout 1s\n' >"$TEST_TMP/sc/HANG"
	RCUTORTURE_SCENARIO_DIR=$TEST_TMP/sc runner --duration 1s --jobs 1 LIAR HANG "$TEST_TMP/sc/LIAR"
	expect_status 1
	expect_out '^--- batch 3: LIAR.2$'
	expect_out '^LIAR +FAILURE +SUCCESS '
	expect_out '^HANG +STALL +STALL '
	expect_out '^2 of 3 runs did not end as expected: LIAR \(FAILURE, expected SUCCESS\) LIAR.2 \(FAILURE, expected SUCCESS\)$'
}

t_runner_default_results_folder() {
	printf -- '--nreaders 1 --nfakewriters 0\n' >"$TEST_TMP/TINY"
	ci/run-scenarios --bin "$BIN" --duration 0.5s "2*$TEST_TMP/TINY" >"$OUT" 2>"$ERR"
	STATUS=$?
	local dir=$(sed -n 's/.*, results in \(.*\)$/\1/p' "$OUT")
	[[ $dir == "$PWD/ci/results/"* ]] || die "results not under ci/results: '$dir'"
	[[ -s $dir/summary && -s $dir/TINY.2/console.log ]] || { rm -rf "$dir"; die "no results in $dir"; }
	rm -rf "$dir"
	rmdir ci/results 2>/dev/null
	expect_status 0
}

t_runner_usage_errors() {
	runner
	expect_status 2
	expect_err '^run-scenarios: no scenarios given'
	runner --frob MEMB01
	expect_status 2
	expect_err "^run-scenarios: unknown option '--frob'"
	runner --jobs 0 MEMB01
	expect_status 2
	expect_err "^run-scenarios: --jobs: '0' is not valid"
	runner "0*MEMB01"
	expect_status 2
	expect_err "repeat count must be at least 1"
	runner "MEMB01 NOSUCH"
	expect_status 2
	expect_err "^run-scenarios: scenario NOSUCH: rcutorture: --scenario: no scenario 'NOSUCH'"
	runner --duration 3x MEMB01
	expect_status 2
	expect_err "^run-scenarios: scenario MEMB01: rcutorture: --duration: '3x' is not a duration"
	runner --duration 0 MEMB01
	expect_status 2
	expect_err 'runs until interrupted'
	ci/run-scenarios --bin "$TEST_TMP/none" MEMB01 >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 2
	[[ ! -e $TEST_TMP/res ]] || die "a usage error created the results folder"
	ci/run-scenarios --help >"$OUT"
	expect_out 'N\*NAME runs NAME N'
}

TEST_LIMIT[t_runner_every_shipped_scenario_ends_as_expected]=360
t_runner_every_shipped_scenario_ends_as_expected() {
	# PRCU-RFC2018 and the catalogue's BUG-* entries need seconds to
	# reproduce their bugs, BUSTED-NR seconds for its need_resched loop:
	# tests of their own (prcu.sh, catalogue.sh, kernel_lines.sh).
	# The negative controls that stop at their first failure get a bound,
	# not a window: BUSTED-IRQ's first failure came at up to 1.57 s in 10
	# idle seeds, and a fresh clone's make check saw it pass 1.5 s under
	# ASan (issue 29).  The others run 1.5 s each.
	local name quick=() controls=()
	for name in $(ls ci/scenarios | grep -Ev 'RFC2018|^BUG-|^BUSTED-NR$'); do
		if grep -q '^#EXPECT: FAILURE' "ci/scenarios/$name" &&
			grep -q -- '^--stop-on-failure' "ci/scenarios/$name"; then
			controls+=("$name")
		else
			quick+=("$name")
		fi
	done
	((${#controls[@]} >= 5)) || die "only ${#controls[@]} stopping negative controls: ${controls[*]}"
	runner --duration 1.5s --jobs 2 "${quick[*]}"
	expect_status 0
	expect_out "^all ${#quick[@]} runs ended as expected$"
	# A control's catch is a race its run can lose: BUSTED-IRQ passed
	# 30 s under ASan with the suite beside it (load 19), caught in
	# 0.2 s idle.  A control that ends SUCCESS runs again (the runner
	# draws a new seed) up to four times in all; any other wrong verdict
	# fails at once, and a control never caught fails.
	local left=("${controls[@]}") missed try verdict
	for ((try = 1; try <= 4 && ${#left[@]}; try++)); do
		rm -rf "$TEST_TMP/res"
		runner --duration 30s --jobs 2 "${left[*]}"
		missed=()
		for name in "${left[@]}"; do
			verdict=$(cat "$TEST_TMP/res/$name/verdict" 2>/dev/null)
			case $verdict in
			FAILURE) ;;
			SUCCESS) missed+=("$name") ;;
			*) die "negative control $name ended ${verdict:-with no verdict}, not FAILURE (try $try)" ;;
			esac
		done
		((${#missed[@]} == 0)) && expect_status 0 && expect_out "^all ${#left[@]} runs ended as expected$"
		left=("${missed[@]}")
	done
	((${#left[@]} == 0)) || die "negative controls never caught in 4 runs of 30 s: ${left[*]}"
}

TEST_NORMAL_ONLY[t_runner_reproduces_the_prcu_barrier_bug]="the runner's script"
t_runner_reproduces_the_prcu_barrier_bug() {
	runner --duration 30s --jobs 2 "PRCU01 PRCU-RFC2018"
	expect_status 0
	expect_out '^PRCU01 +SUCCESS +SUCCESS '
	expect_out '^PRCU-RFC2018 +FAILURE +FAILURE +[0-9]+ +[0-9.]+ +[0-9.]+ s: rtbe$'
}

# The runner reads the durations a dry run prints in every unit: 1500ns is
# 1.5 us, not 1500 s, so the run's time limit (duration + 2 stall
# timeouts + 60 s, in cmd) is 1 + 2 * 2 + 60 seconds.
t_runner_reads_durations_in_every_unit() {
	mkdir -p "$TEST_TMP/sc"
	printf -- '--stall-timeout 1.5s --nreaders 1 --nfakewriters 0\n' >"$TEST_TMP/sc/TINY"
	RCUTORTURE_SCENARIO_DIR=$TEST_TMP/sc runner --duration 0.0000015 --jobs 1 TINY
	expect_status 0
	expect_out '^TINY +SUCCESS +SUCCESS '
	grep -q ' duration=1500ns ' "$TEST_TMP/res/TINY/console.log" || die "no duration=1500ns in the report"
	[[ $(cat "$TEST_TMP/res/TINY/cmd") == "timeout -k 10 65 $BIN "* ]] ||
		die "time limit: $(cat "$TEST_TMP/res/TINY/cmd")"
}
