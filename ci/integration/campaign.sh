# Integration tests: the campaign runner ci/campaign/rcutorture-campaign
# (issue 17): the job pool, seeds, pass-through arguments, the dry run,
# the results tree with JUnit and TAP, re-runs, hosts through GNU parallel
# (stand-in hosts: ci/integration/standin-ssh; a real sshd when one can be
# started), bad input, and the CI templates in ci/examples/.

# Shell scripts around the binary: the ASan+UBSan lane adds nothing.
TEST_FILE_NORMAL_ONLY="the campaign runner's scripts"

CAMPAIGN=ci/campaign/rcutorture-campaign

# The runner against the binary under test, results in $TEST_TMP/res.
campaign() {
	$CAMPAIGN --bin "$BIN" --results "$TEST_TMP/res" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
}

# Stand-in hosts h1..hN: each a folder under $TEST_TMP/hosts, and a hosts
# file $TEST_TMP/hosts.txt giving each SLOTS job slots.
standin_hosts() { # n slots
	local k
	rm -rf "$TEST_TMP/hosts"
	for ((k = 1; k <= $1; k++)); do
		mkdir -p "$TEST_TMP/hosts/h$k"
		echo "$2/h$k"
	done >"$TEST_TMP/hosts.txt"
	export STANDIN_ROOT=$TEST_TMP/hosts
}

STANDIN_SSH=$PWD/ci/integration/standin-ssh

# A run's start and end (ms since the epoch) from its times-ms file.
run_start() { cut -d' ' -f1 "$TEST_TMP/res/$1/times-ms"; }
run_end() { cut -d' ' -f2 "$TEST_TMP/res/$1/times-ms"; }

# The pool starts the next run when one ends, not when a batch ends: with
# two slots, a long run and three short ones, the third short run starts
# while the long one still runs (in lock-step batches it would wait).
t_campaign_pool_starts_a_run_as_soon_as_one_ends() {
	mkdir -p "$TEST_TMP/sc"
	printf -- '--nreaders 1 --nfakewriters 0 --duration 4s\n' >"$TEST_TMP/sc/LONG"
	printf -- '--nreaders 1 --nfakewriters 0 --duration 0.5s\n' >"$TEST_TMP/sc/SHORT"
	RCUTORTURE_SCENARIO_DIR=$TEST_TMP/sc campaign -j 2 "LONG 3*SHORT"
	expect_status 0
	expect_out "^rcutorture-campaign: 4 runs of $BIN in a pool of 2 slots, results in $TEST_TMP/res$"
	expect_out '^all 4 runs ended as expected$'
	(($(run_start SHORT.3) < $(run_end LONG))) ||
		die "SHORT.3 started at $(run_start SHORT.3), after LONG ended at $(run_end LONG)"
	(($(run_start SHORT.2) >= $(run_end SHORT) - 50)) || die "SHORT.2 started before a slot was free"
}

# By default runs are packed by their --cpus: on 4 CPUs, two 1-CPU runs
# share the machine with a 2-CPU run, and a 4-CPU run has it alone.
t_campaign_packs_runs_by_their_cpus() {
	mkdir -p "$TEST_TMP/sc"
	printf -- '--nreaders 1 --nfakewriters 0 --cpus 1\n' >"$TEST_TMP/sc/ONE"
	printf -- '--nreaders 1 --nfakewriters 0 --cpus 2\n' >"$TEST_TMP/sc/TWO"
	printf -- '--nreaders 1 --nfakewriters 0 --cpus 4\n' >"$TEST_TMP/sc/FOUR"
	RCUTORTURE_SCENARIO_DIR=$TEST_TMP/sc campaign --host-cpus 4 --duration 1s --dryrun "2*ONE TWO FOUR"
	expect_status 0
	expect_out 'packed onto its 4 CPUs by each run.s --cpus'
	expect_out '^\+0s +FOUR +[0-9]+ +4  local 1-4/4 '
	expect_out '^\+1s +TWO +[0-9]+ +2  local 1-2/4 '
	expect_out '^\+1s +ONE +[0-9]+ +1  local 3-3/4 '
	expect_out '^\+1s +ONE.2 +[0-9]+ +1  local 4-4/4 '
	expect_out '^estimated wall time: 2s '
	[[ ! -e $TEST_TMP/res ]] || die "a dry run made the results folder"
	# And for real: the two 1-CPU runs and the 2-CPU run overlap, the 4-CPU
	# run overlaps none.
	RCUTORTURE_SCENARIO_DIR=$TEST_TMP/sc campaign --host-cpus 4 --duration 1s "2*ONE TWO FOUR"
	expect_status 0
	(($(run_start ONE) < $(run_end TWO) && $(run_start ONE.2) < $(run_end TWO))) || die "ONE and TWO did not overlap"
	(($(run_end FOUR) <= $(run_start TWO) + 50)) || die "TWO started while FOUR had every CPU"
}

# --seeds N: each scenario copy with N seeds from --seed on, the same
# seeds for every scenario; arguments after -- reach every run.
t_campaign_seeds_and_pass_through_arguments() {
	campaign --seeds 2 --seed 4200 --duration 0.5s "MEMB01 BUSTED" -- --nreaders 1
	expect_status 0
	local run seed
	for run in MEMB01:4200 MEMB01.2:4201 BUSTED:4200 BUSTED.2:4201; do
		seed=${run#*:} run=${run%:*}
		[[ $(cat "$TEST_TMP/res/$run/seed") == "$seed" ]] || die "$run: seed $(cat "$TEST_TMP/res/$run/seed")"
		grep -q "Start of test: .* seed=$seed " "$TEST_TMP/res/$run/console.log" || die "$run did not run with seed $seed"
		grep -q ' nreaders=1 ' "$TEST_TMP/res/$run/console.log" || die "$run: no nreaders=1"
		grep -qx -- '--nreaders' "$TEST_TMP/res/$run/args" || die "$run: args lack the pass-through"
	done
	expect_out "^MEMB01.2 +SUCCESS +SUCCESS +[0-9]+ +[0-9.]+ 4201 +local +none$"
}

# The results tree, summary.json, JUnit XML and TAP for a campaign with
# an unexpected failure: one test case per run, the failure's message is
# the run's First failure line, its log attached.
t_campaign_results_junit_and_tap() {
	mkdir -p "$TEST_TMP/sc"
	printf -- '--flavor busted --stop-on-failure\n' >"$TEST_TMP/sc/LIAR"
	RCUTORTURE_SCENARIO_DIR=$TEST_TMP/sc campaign -j 2 --duration 1s "MEMB01 LIAR BUSTED"
	expect_status 1
	expect_out '^1 of 3 runs did not end as expected: LIAR \(FAILURE, expected SUCCESS\)$'
	local r=$TEST_TMP/res f first
	for f in summary summary.json junit.xml results.tap; do
		[[ -s $r/$f ]] || die "no $f"
	done
	for f in cmd seed scenario args console.log stderr.log run.json exit-status host verdict expected; do
		[[ -e $r/LIAR/$f ]] || die "LIAR has no $f"
	done
	[[ $(cat "$r/LIAR/verdict") == FAILURE && $(cat "$r/LIAR/host") == local ]] || die "LIAR's verdict or host"
	jqr "$r/summary.json" '.counts == {runs: 3, as_expected: 2, unexpected: 1, lost: 0, by_verdict: {FAILURE: 2, SUCCESS: 1}}' >/dev/null
	jqr "$r/summary.json" '.runs[1] | .run == "LIAR" and .ok == false and .exit_status == 1 and (.first_failure | length > 0)' >/dev/null
	first=$(grep -o 'First failure: .*' "$r/LIAR/console.log" | tail -n 1)
	[[ -n $first ]] || die "LIAR printed no First failure line"
	grep -q '^<testsuites name="rcutorture-campaign" tests="3" failures="1" errors="0">$' "$r/junit.xml" || die "junit: counts"
	(($(grep -c '<testcase ' "$r/junit.xml") == 3)) || die "junit: not one test case per run"
	grep -qF "<failure type=\"FAILURE\" message=\"$(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' <<<"$first")" "$r/junit.xml" ||
		die "junit: the failure message is not the First failure line"
	grep -qF "[[ATTACHMENT|$r/LIAR/console.log]]" "$r/junit.xml" || die "junit: no log attached"
	grep -q 'Reader Pipe:' "$r/junit.xml" || die "junit: the console log is not in system-out"
	if command -v python3 >/dev/null; then
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$r/junit.xml" || die "junit.xml is not XML"
	fi
	[[ $(sed -n 2p "$r/results.tap") == 1..3 ]] || die "tap: no plan 1..3"
	grep -q '^ok 1 - MEMB01 SUCCESS seed=' "$r/results.tap" || die "tap: MEMB01"
	grep -q '^not ok 2 - LIAR FAILURE, expected SUCCESS ' "$r/results.tap" || die "tap: LIAR"
	grep -qF "  message: \"$first (verdict FAILURE, expected SUCCESS)\"" "$r/results.tap" || die "tap: message"
	grep -q '^ok 3 - BUSTED FAILURE ' "$r/results.tap" || die "tap: BUSTED"
	diff <(sed -n '/^run /,$p' "$OUT") "$r/summary" >/dev/null || die "summary file differs from the table"
}

# Progress: without a terminal, one timestamped line per finished run.
t_campaign_progress_line_per_run() {
	campaign -j 2 --duration 0.5s "2*MEMB01"
	expect_status 0
	(($(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z rcutorture-campaign: \[[12]/2\] MEMB01(.2)? SUCCESS \(expected SUCCESS\) on local; 0 failed, 0 lost so far, [0-9]+s elapsed, ETA [0-9]+s$' "$ERR") == 2)) ||
		die "not one progress line per run: $(cat "$ERR")"
	# On a terminal: one line rewritten in place (script(1) gives a pty).
	if command -v script >/dev/null; then
		script -qec "$CAMPAIGN --bin $BIN --results $TEST_TMP/res2 -j 2 --duration 0.5s 2*MEMB01 >/dev/null" /dev/null >"$TEST_TMP/tty" 2>&1
		grep -q $'\r\e\\[Krcutorture-campaign: 2/2 runs done, 0 failed, 0 lost, [0-9]*s elapsed, ETA 0s' "$TEST_TMP/tty" ||
			die "no progress line on a terminal: $(cat -v "$TEST_TMP/tty" | head -c 400)"
	fi
}

# --rerun DIR/RUN N times with the recorded seed and arguments reproduces
# a failure and says so; --rerun DIR re-runs the whole campaign.
t_campaign_rerun_reproduces_with_the_recorded_seed() {
	campaign --seed 77 --duration 3s "BUSTED MEMB01" -- --nreaders 2
	expect_status 0
	local first=$TEST_TMP/res
	$CAMPAIGN --bin "$BIN" --results "$TEST_TMP/again" --rerun "$first/BUSTED" --repeat 3 >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 0
	expect_out "^rerun of $first/BUSTED \(FAILURE, first failure [0-9.]+ s: .*, seed 77\): reproduced 3 of 3 times \(FAILURE 3\)$"
	local k
	for k in 1 2 3; do
		grep -q -- "--scenario BUSTED --seed 77 --duration 3s --nreaders 2 " "$TEST_TMP/again/BUSTED.r$k/cmd" ||
			die "BUSTED.r$k: $(cat "$TEST_TMP/again/BUSTED.r$k/cmd")"
	done
	[[ -s $TEST_TMP/again/reproduced && -s $TEST_TMP/again/junit.xml ]] || die "no reproduced or junit.xml"
	$CAMPAIGN --bin "$BIN" --results "$TEST_TMP/again2" --rerun "$first" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 0
	expect_out '^BUSTED.r1 +FAILURE +FAILURE '
	expect_out '^MEMB01.r1 +SUCCESS +SUCCESS .* 77 +local +none$'
	expect_out "^rerun of $first/MEMB01 \(SUCCESS, seed 77\): reproduced 1 of 1 times \(SUCCESS 1\)$"
	$CAMPAIGN --bin "$BIN" --rerun "$TEST_TMP" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 2
	expect_err "^rcutorture-campaign: --rerun: '$TEST_TMP' is neither a campaign's results folder nor one of its runs$"
}

# Bad input: a clear message, exit 2, nothing run, no results folder.
t_campaign_bad_input_exits_2() {
	local e
	campaign "MEMB01 NOSUCH"
	expect_status 2
	expect_err "^rcutorture-campaign: scenario NOSUCH: rcutorture: --scenario: no scenario 'NOSUCH'"
	campaign --seeds 0 MEMB01
	expect_status 2
	expect_err "^rcutorture-campaign: --seeds: '0' is not valid; expected a positive integer$"
	campaign MEMB01 -- --nreaders lots
	expect_status 2
	expect_err "^rcutorture-campaign: scenario MEMB01: rcutorture: --nreaders: 'lots'"
	campaign --hosts "$TEST_TMP/none.txt" MEMB01
	expect_status 2
	expect_err "^rcutorture-campaign: --hosts: cannot read '$TEST_TMP/none.txt'$"
	printf '2/h1\n# fine\nssh -p 22 h2\n' >"$TEST_TMP/bad.txt"
	campaign --hosts "$TEST_TMP/bad.txt" MEMB01
	expect_status 2
	expect_err "^rcutorture-campaign: --hosts: $TEST_TMP/bad.txt:3: 'ssh -p 22 h2' is not an sshlogin; expected \[N/\]\[user@\]host"
	printf '0/h1\n' >"$TEST_TMP/bad.txt"
	campaign --hosts "$TEST_TMP/bad.txt" MEMB01
	expect_status 2
	expect_err "bad.txt:1: '0/h1' is not an sshlogin"
	printf '# nothing\n\n' >"$TEST_TMP/bad.txt"
	campaign --hosts "$TEST_TMP/bad.txt" MEMB01
	expect_status 2
	expect_err "names no host"
	standin_hosts 2 1
	echo h9 >>"$TEST_TMP/hosts.txt"
	campaign --hosts "$TEST_TMP/hosts.txt" --ssh "$STANDIN_SSH" MEMB01
	expect_status 2
	expect_err "^rcutorture-campaign: --hosts: cannot reach host 'h9' with '$STANDIN_SSH': ssh: Could not resolve hostname h9"
	(($(wc -l <"$ERR") == 1)) || die "expected a one-line error, got $(wc -l <"$ERR")"
	[[ ! -e $TEST_TMP/res ]] || die "bad input made the results folder"
	e=$(find "$TEST_TMP/hosts" -type f | head -n 1)
	[[ -z $e ]] || die "bad input shipped $e to a host"
	# Another campaign's results would be read as this one's (a lost
	# mark left there made a run on a live host LOST).
	mkdir -p "$TEST_TMP/res/MEMB01" && echo "old" >"$TEST_TMP/res/MEMB01/lost"
	campaign --duration 0.5s MEMB01
	expect_status 2
	expect_err "^rcutorture-campaign: --results: '$TEST_TMP/res' is not empty; name a new or empty folder$"
	[[ $(ls -A "$TEST_TMP/res") == MEMB01 ]] || die "a refused campaign wrote into the results folder"
}

# Four stand-in hosts through parallel: every run comes back from a host,
# the summary counts match, the hosts are left clean.
t_campaign_on_standin_hosts() {
	standin_hosts 4 2
	campaign --hosts "$TEST_TMP/hosts.txt" --ssh "$STANDIN_SSH" --seeds 2 --duration 1s "MEMB01 QSBR01 BUSTED"
	expect_status 0
	expect_out "^rcutorture-campaign: 6 runs of $BIN on 4 hosts \($TEST_TMP/hosts.txt\), results in $TEST_TMP/res$"
	expect_out '^all 6 runs ended as expected$'
	local run r=$TEST_TMP/res
	for run in MEMB01 MEMB01.2 QSBR01 QSBR01.2 BUSTED BUSTED.2; do
		[[ $(cat "$r/$run/host") =~ ^h[1-4]$ ]] || die "$run: host '$(cat "$r/$run/host")'"
		jq -e . "$r/$run/run.json" >/dev/null || die "$run: no valid run.json came back"
		grep -q "scenario ${run%.2} from .*/\.ship/scenarios/${run%.2}, expected" "$r/$run/console.log" ||
			die "$run did not use the shipped scenario"
		[[ $(cat "$r/$run/cmd") == "timeout -k 10 "*" .ship/rcutorture --scenario ${run%.2} "* ]] ||
			die "$run did not run the shipped binary: $(cat "$r/$run/cmd")"
	done
	jqr "$r/summary.json" '.counts == {runs: 6, as_expected: 6, unexpected: 0, lost: 0, by_verdict: {FAILURE: 2, SUCCESS: 4}}' >/dev/null
	(($(grep -c '^ok ' "$r/results.tap") == 6)) || die "tap: not 6 ok"
	run=$(find "$TEST_TMP/hosts" -type f | head -n 1)
	[[ -z $run ]] || die "a host was not cleaned up: $run"
	# The dry run names hosts and slots without contacting them.
	campaign --hosts "$TEST_TMP/hosts.txt" --ssh /bin/false --duration 2s --dryrun "4*MEMB01"
	expect_status 0
	expect_out '^  host h4: 2 job slots$'
	expect_out '^\+0s +MEMB01.4 +[0-9]+ +2  h2 '
	expect_out '^estimated wall time: 2s '
}

# A plugin named by a pass-through argument is shipped to the hosts.
t_campaign_ships_a_plugin_to_hosts() {
	[[ -f $PLUGINS/librcutorture-example.so ]] || { echo "SKIP: no plugins (make plugins)"; return 0; }
	standin_hosts 2 1
	campaign --hosts "$TEST_TMP/hosts.txt" --ssh "$STANDIN_SSH" --duration 1s "2*MEMB01" -- \
		--flavor "$PLUGINS/librcutorture-example.so"
	expect_status 0
	grep -q '^example-torture:--- End of test: SUCCESS' "$TEST_TMP/res/MEMB01.2/console.log" ||
		die "the shipped plugin did not run: $(tail -n 2 "$TEST_TMP/res/MEMB01.2/console.log")"
	grep -q -- '--flavor .ship/files/librcutorture-example.so' "$TEST_TMP/res/MEMB01/cmd" || die "plugin not shipped"
}

# A host that dies mid-campaign costs only the run it was running: that
# run is LOST (summary, JUnit error, TAP), the runs it had not started go
# to the other hosts, exit status 3.
# A CI job's environment may have no SHELL; parallel then ran nothing on
# any host and the preflight said "no answer" for each.
t_campaign_on_hosts_without_a_shell_variable() {
	standin_hosts 2 1
	env -u SHELL -u PARALLEL_SHELL $CAMPAIGN --bin "$BIN" --results "$TEST_TMP/res" --hosts "$TEST_TMP/hosts.txt" \
		--ssh "$STANDIN_SSH" --duration 1s "MEMB01 BUSTED" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 0
	expect_out '^all 2 runs ended as expected$'
}

t_campaign_host_dies_mid_campaign() {
	standin_hosts 4 1
	echo 1 >"$TEST_TMP/hosts/h3/DIE_AFTER"
	campaign --hosts "$TEST_TMP/hosts.txt" --ssh "$STANDIN_SSH" --duration 1s "6*MEMB01 2*BUSTED"
	expect_status 3
	local r=$TEST_TMP/res lost
	lost=$(grep -l . "$r"/*/lost | wc -l)
	((lost == 1)) || die "$lost runs lost, expected the one h3 was running"
	lost=$(dirname "$(grep -l . "$r"/*/lost)") && lost=${lost##*/}
	expect_out "^$lost +LOST +SUCCESS +- +- +[0-9]+ +h3 +host h3 died while the run ran \(ssh exit 255\)$"
	expect_out "^1 of 8 runs did not end as expected: $lost \(LOST, expected SUCCESS\)$"
	expect_out "^host h3 died during the campaign; runs lost with it: $lost; the runs it had not started went to the other hosts$"
	(($(grep -c ' h[124] ' "$OUT") == 7)) || die "the 7 other runs did not all end on h1, h2 or h4"
	jqr "$r/summary.json" '.counts.lost == 1 and .counts.as_expected == 7 and .dead_hosts == ["h3"]' >/dev/null
	grep -q '<error type="LOST" message="host h3 died while the run ran' "$r/junit.xml" || die "junit: no error for the lost run"
	grep -q "^not ok [0-9]* - $lost LOST, expected SUCCESS seed=[0-9]* host=h3$" "$r/results.tap" || die "tap: lost run"
}

# A real sshd on 127.0.0.1, started by the test on a free port with its
# own keys, when openssh-server is installed: the same campaign through
# real ssh and rsync (one multiplexed connection: parallel opens several
# sessions per file it ships).  (The test does not install it: apt-get took 6
# minutes on a loaded machine, beyond a test's time limit, and a dpkg
# killed half-way breaks the machine.)
t_campaign_through_a_real_sshd() {
	local sshd=/usr/sbin/sshd d=$TEST_TMP/sshd port pid
	[[ -x $sshd ]] || { echo "SKIP: no $sshd: apt-get install openssh-server to run this test"; return 0; }
	mkdir -p "$d" && chmod 700 "$d"
	ssh-keygen -q -t ed25519 -N '' -f "$d/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$d/user_key" ||
		{ echo "SKIP: ssh-keygen failed"; return 0; }
	cp "$d/user_key.pub" "$d/authorized_keys"
	port=$((20000 + RANDOM % 20000))
	mkdir -p /run/sshd 2>/dev/null
	"$sshd" -D -e -p "$port" -h "$d/host_key" -o ListenAddress=127.0.0.1 -o PidFile="$d/pid" \
		-o AuthorizedKeysFile="$d/authorized_keys" -o StrictModes=no >"$d/log" 2>&1 &
	pid=$!
	sleep 1
	if ! kill -0 $pid 2>/dev/null; then
		echo "SKIP: sshd does not start here: $(tail -n 1 "$d/log")"
		return 0
	fi
	echo "2/127.0.0.1" >"$TEST_TMP/hosts.txt"
	campaign --hosts "$TEST_TMP/hosts.txt" --duration 1s "MEMB01 BUSTED" \
		--ssh "ssh -p $port -i $d/user_key -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ControlMaster=auto -o ControlPath=$d/cm-%p -o ControlPersist=5"
	signal_child TERM $pid
	expect_status 0
	expect_out '^all 2 runs ended as expected$'
	[[ $(cat "$TEST_TMP/res/BUSTED/host") == 127.0.0.1 ]] || die "BUSTED's host: $(cat "$TEST_TMP/res/BUSTED/host")"
	jq -e . "$TEST_TMP/res/MEMB01/run.json" >/dev/null || die "no valid run.json came back through ssh"
}

# The CI templates parse as YAML and call only commands that exist: make
# targets of the Makefile, the campaign runner and its options, Debian
# packages apt knows.
t_campaign_ci_templates_parse_and_call_real_commands() {
	local f t opt pkgs=()
	for f in ci/examples/github-actions.yml ci/examples/gitlab-ci.yml; do
		[[ -f $f ]] || die "no $f"
		if python3 -c 'import yaml' 2>/dev/null; then
			python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$f" || die "$f does not parse as YAML"
		elif command -v ruby >/dev/null; then
			ruby -ryaml -e 'YAML.load_file(ARGV[0])' "$f" || die "$f does not parse as YAML"
		else
			die "no YAML parser (python3-yaml or ruby) to check $f"
		fi
		for t in $(grep -o 'make [a-z-]*' "$f" | awk '$2 !~ /^-/ {print $2}' | sort -u); do
			grep -q "^$t:" Makefile || die "$f calls make $t, which the Makefile lacks"
		done
		grep -q 'rcutorture-campaign ' "$f" || die "$f does not run a campaign"
		for opt in $(grep -o 'rcutorture-campaign .*' "$f" | grep -o -- '--[a-z-]*' | sort -u); do
			$CAMPAIGN --help | grep -qE -- "^ +(-[a-z], )?$opt( |$)" || die "$f: rcutorture-campaign has no $opt"
		done
		pkgs+=($(grep -o 'apt-get install .*' "$f" | cut -d' ' -f3- | tr ' ' '\n' | grep -v '^-'))
		grep -q 'ci/deps' "$f" || die "$f does not install the Debian dependencies with ci/deps"
		grep -q 'junit.xml' "$f" || die "$f does not publish the JUnit report"
		# The smoke campaign it runs is a valid plan for this runner.
		t=$(grep -o 'rcutorture-campaign .*' "$f" | head -n 1)
		eval "$CAMPAIGN --bin $BIN --dryrun ${t#rcutorture-campaign }" >"$OUT" 2>"$ERR" ||
			die "$f: its campaign is not a valid plan: $(cat "$ERR")"
		expect_out '^estimated wall time: '
	done
	# One apt-cache call: it is slow on a loaded machine.
	((${#pkgs[@]})) || die "the templates install no Debian package"
	apt-cache show "${pkgs[@]}" >/dev/null 2>&1 || die "apt does not know one of: ${pkgs[*]}"
}
