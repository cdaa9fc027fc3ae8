# Integration tests: simulated CPUs, CPU offline, the barrier test, the
# callback flood, stutter and shuffle.

# Fields of the last "onoff:" field: on_ok on_att off_ok off_att.
onoff_counts() {
	grep -o 'onoff: [0-9]*/[0-9]*:[0-9]*/[0-9]*' "$OUT" | tail -n 1 | sed -E 's#onoff: ([0-9]+)/([0-9]+):([0-9]+)/([0-9]+)#\1 \2 \3 \4#'
}

# Whether the last stats block counts at least N offline attempts.
offline_attempts_reach() { # N
	local counts
	counts=$(onoff_counts)
	((${counts##* } + 0 >= $1))
}

barrier_counts() { # ok attempts errors
	grep -o 'barrier: [0-9]*/[0-9]*:[0-9]*' "$OUT" | tail -n 1 | sed -E 's#barrier: ([0-9]+)/([0-9]+):([0-9]+)#\1 \2 \3#'
}

# Each flavor and call_rcu mode through at least 10 offline attempts
# (however long the machine takes to make them, up to a minute).
t_onoff_cycles_succeed() {
	for mode in global percpu; do
		for f in memb qsbr bp; do
			run_until 'offline_attempts_reach 10' --flavor $f --cpus 6 \
				--onoff-interval 20ms --call-rcu $mode --duration 60 --stat-interval 200ms
			expect_status 0
			expect_out "^$f-torture:--- End of test: SUCCESS"
			read -r on_ok on_att off_ok off_att <<<"$(onoff_counts)"
			((off_att >= 10)) || die "$f/$mode: only $off_att offline attempts"
			((on_ok == on_att && off_ok == off_att)) || die "$f/$mode: onoff failures: $(onoff_counts)"
			expect_out 'Callbacks: invoked: [0-9]+ early: 0 duplicate: 0 lost: 0'
		done
	done
}

# Issue 26 item 6: one simulated CPU runs no hotplug, and says so as the
# kernel does.
t_onoff_with_one_cpu_says_so() {
	run --cpus 1 --onoff-interval 10ms --duration 1 --stat-interval 0
	expect_status 0
	expect_out '^memb-torture: Only one CPU, so CPU-hotplug testing is disabled$'
	run --cpus 2 --onoff-interval 10ms --duration 1 --stat-interval 0
	expect_status 0
	expect_no_out 'Only one CPU'
}

t_onoff_failures_end_rcu_hotplug() {
	run --flavor busted-hotplug --cpus 4 --onoff-interval 20ms --duration 2 --stat-interval 0
	expect_status 3
	expect_out '^busted-hotplug-torture:--- End of test: RCU_HOTPLUG: '
	read -r on_ok on_att off_ok off_att <<<"$(onoff_counts)"
	((off_ok < off_att)) || die "no failed offline counted: $(onoff_counts)"
	# The failed transition is announced and named, as any failure is
	# (issue 13 item 4: the report said "First failure: none").
	expect_out '^busted-hotplug-torture: first CPU hotplug failure at [0-9.]+ s: simulated CPU [0-9]+ failed to go offline'
	expect_out '^busted-hotplug-torture: First failure: at [0-9.]+ s, caught by: CPU hotplug: simulated CPU [0-9]+ failed to go offline: the flavor.s cpu_offline hook refused$'
	# Once, and without "!!!": the kernel prints none for hotplug, and
	# parse-console.sh reads a "!!!" line as a FAILURE (issue 26 item 2).
	[[ $(grep -c 'first CPU hotplug failure' "$OUT") == 1 ]] || die "not one 'first CPU hotplug failure' line"
	expect_no_out '!!!'
	# --stop-on-failure ends the run at the failed transition, as at any
	# failure (it ran its whole --duration before).
	run --flavor busted-hotplug --cpus 4 --onoff-interval 20ms --duration 60 --stat-interval 0 \
		--stop-on-failure
	expect_status 3
	expect_out '^busted-hotplug-torture:--- End of test: RCU_HOTPLUG: '
	expect_report_time_below 'Rates over' 60 'the run ended'
}

t_never_offlines_the_last_cpu() {
	run --cpus 2 --onoff-interval 5ms --duration 1.5 --stat-interval 0
	expect_status 0
	read -r on_ok on_att off_ok off_att <<<"$(onoff_counts)"
	# With two CPUs, offline and online must alternate strictly.
	((off_att - on_att <= 1 && off_att >= on_att)) || die "onoff with 2 CPUs: $(onoff_counts)"
}

t_barrier_test_succeeds() {
	run --flavor memb --n-barrier-cbs 4 --cpus 4 --duration 2 --stat-interval 0
	expect_status 0
	read -r ok att err <<<"$(barrier_counts)"
	((att >= 5 && ok == att && err == 0)) || die "barrier: $ok/$att:$err"
	expect_out 'rtbe: 0 '
}

TEST_LIMIT[t_busted_barrier_fails_with_rtbe]=150
t_busted_barrier_fails_with_rtbe() {
	run_caught 3 --flavor busted-barrier --n-barrier-cbs 4 --duration 30 --seed 1 --stop-on-failure --stat-interval 0
	expect_status 1
	expect_out '^busted-barrier-torture: !!! first failure at [0-9.]+ s: rtbe: barrier returned after [0-9]+ of 4 barrier callbacks had run'
	expect_out 'rtbe: [1-9][0-9]* '
	expect_out 'barrier: [0-9]+/[0-9]+:[1-9]'
	expect_out 'End of test: FAILURE'
	# --stop-on-failure ended it at the catch, not at its 30 s.
	expect_report_time_below 'Rates over' 30 'the run ended'
}


t_callback_flood_reports_and_respects_the_cap() {
	# Until two floods are done, however long a loaded machine takes.
	run_until "(( \$(grep -c 'fwd_prog_cr 0' \"\$OUT\") >= 2 ))" --flavor memb --fwd-progress 1 \
		--fwd-progress-holdoff 300ms --cbflood-max 2000 --duration 60 --stat-interval 0
	expect_status 0
	expect_out '^memb-torture: fwd_prog_cr 0: Duration [0-9]+ ms barrier: [0-9]+ ms n_max_cbs: [0-9]+ posted: [0-9]+ gps: [0-9]+$'
	expect_out '^memb-torture: Callback-invocation histogram 0 \(100 ms buckets\): 0.1s: [0-9]+'
	local max
	for max in $(grep -o 'n_max_cbs: [0-9]*' "$OUT" | awk '{print $2}'); do
		((max <= 2000)) || die "flood kept $max callbacks outstanding, cap 2000"
	done
	(($(grep -c 'fwd_prog_cr 0' "$OUT") >= 2)) || die "expected a flood per holdoff"
}

# The Memory line is the process's real peak: a flood's queued callbacks
# (at least 64 bytes each: a head and the early-callback witnesses) raise it
# above a run without floods.
t_flood_callbacks_raise_max_rss() {
	run --fwd-progress 0 --nfakewriters 0 --duration 1 --stat-interval 0
	expect_status 0
	expect_out '^memb-torture: Memory: max RSS: [0-9]+\.[0-9] MiB$'
	local idle flood nmax
	idle=$(sed -n 's/.*Memory: max RSS: \([0-9.]*\) MiB$/\1/p' "$OUT")
	run --fwd-progress 1 --fwd-progress-holdoff 200ms --cbflood-max 100000 --nfakewriters 0 --duration 2 --stat-interval 0
	expect_status 0
	flood=$(sed -n 's/.*Memory: max RSS: \([0-9.]*\) MiB$/\1/p' "$OUT")
	nmax=$(grep -o 'n_max_cbs: [0-9]*' "$OUT" | awk '$2 > m { m = $2 } END { print m + 0 }')
	((nmax >= 5000)) || die "the floods kept at most $nmax callbacks outstanding"
	awk -v i="$idle" -v f="$flood" -v n="$nmax" 'BEGIN { exit !((f - i) * 1048576 >= n * 64) }' ||
		die "max RSS $flood MiB with $nmax callbacks outstanding, $idle MiB without floods"
}

t_flood_disabled_with_zero() {
	run --fwd-progress 0 --fwd-progress-holdoff 100ms --duration 1 --stat-interval 0
	expect_status 0
	expect_no_out 'fwd_prog_cr'
}

t_more_simulated_cpus_than_pus_and_scatter() {
	run --flavor qsbr --cpus 16 --pin scatter --onoff-interval 10ms --duration 2 --stat-interval 0 -v
	expect_status 0
	expect_out '^qsbr-torture: topology: [0-9]+ packages, [0-9]+ cores, [0-9]+ PUs; this process may use [0-9]+ PUs$'
	expect_out '^qsbr-torture: 16 simulated CPUs, pinning scatter: 0->PU[0-9]+ '
	expect_out '^qsbr-torture: reader 0 on simulated CPU [0-9]+ \(PU [0-9]+\)$'
	expect_out '^qsbr-torture: writer 0 on simulated CPU'
	expect_out ' cpus=16 pin=scatter '
}

t_pin_none_and_stutter_and_shuffle() {
	run --cpus 4 --pin none --stutter 200ms --shuffle-interval 100ms --onoff-interval 30ms --duration 2 --stat-interval 0
	expect_status 0
	expect_out ' pin=none '
	expect_out ' stutter=200ms shuffle_interval=100ms'
	expect_out 'End of test: SUCCESS'
}

t_bad_cpu_and_thread_options() {
	local a
	for a in "--cpus 0" "--cpus 1025" "--pin diagonal" "--n-barrier-cbs -1" "--cbflood-max 0" \
		"--fwd-progress-div 0" "--fwd-progress 65" "--onoff-interval soon" "--stutter -1s" \
		"--shuffle-interval x"; do
		run $a
		expect_status 2
		expect_err "^rcutorture: ${a%% *}: "
	done
	run --pin diagonal
	expect_err "^rcutorture: --pin: 'diagonal' is not valid; expected compact, scatter or none$"
}
