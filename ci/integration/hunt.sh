# Integration tests: bug hunting (issue 12): preemption injection, race
# delays, kernel-like thread counts, swarm runs and the --hunt preset.

# The Start line's value of key=.
start_value() { # key
	grep -o "Start of test: .*" "$OUT" | grep -o " $1=[^ ]*" | head -n 1 | cut -d= -f2
}

# The last stats block's "preempts: SENT/DELAYS" and "races: HITS/DELAYS".
injected() { # preempts|races
	grep -o " $1: [0-9]*/[0-9]*" "$OUT" | tail -n 1 | awk '{print $2}'
}

t_hunt_bad_values() {
	bad_input "--preempt-duration: 'x' is not a duration" --preempt-duration x
	bad_input "--preempt-duration: must be at most --stall-timeout / 4 \(250ms\)" \
		--stall-timeout 1s --preempt-duration 300ms
	bad_input "--preempt-interval: '0.001ms' is out of range; expected 0.01ms to 1d" \
		--preempt-interval 0.001ms
	bad_input "--race-delay: '-1' is not valid" --race-delay -1
	bad_input "--race-delay-max: must be at most --stall-timeout / 4" \
		--race-delay 10 --race-delay-max 3s
	bad_input "--nreaders: '-4097' is not valid" --nreaders -4097
	bad_input "--nwriters: '0' is not valid" --test scale --nwriters 0
	bad_input "--swarm: only for --test torture" --test ref --swarm
	bad_input "--hunt: only for --test torture" --test scale --hunt
	bad_input "--swarm-interval: needs --swarm or --hunt" --swarm-interval 1s
	bad_input "--swarm-interval: 'x' is not a duration" --swarm --swarm-interval x
	bad_input "--gpwrap-lag: flavor memb has no gpwrap_lag parameter" --gpwrap-lag 5
	bad_input "--gpwrap-lag: '-1' is not valid" --flavor prcu --gpwrap-lag -1
}

t_hunt_start_line_shows_the_parameters() {
	run --dry-run --seed 1 --preempt-duration 3ms --preempt-interval 0.2ms --race-delay 7 \
		--race-delay-max 0.5ms
	expect_status 0
	expect_out ' preempt_duration=3ms preempt_interval=200us race_delay=7 race_delay_max=500us swarm=0 hunt=0( |$)'
	# The kernel's spellings are in ms.
	run --dry-run rcutorture.preempt_duration=4 rcutorture.preempt_interval=2
	expect_out ' preempt_duration=4ms preempt_interval=2ms '
}

t_hunt_kernel_relative_counts() {
	run --dry-run --cpus 8
	expect_out 'Start of test: nreaders=8 nfakewriters=4 '
	run --dry-run --cpus 8 --nreaders -1 --nfakewriters -3
	expect_out 'Start of test: nreaders=7 nfakewriters=9 '
	run --dry-run --cpus 2 rcutorture.nreaders=-1 --nfakewriters -1
	expect_out 'Start of test: nreaders=1 nfakewriters=1 '
	run --dry-run --cpus 3 --nreaders -2
	expect_out 'Start of test: nreaders=3 '
	run --dry-run --cpus 3 --hunt
	expect_out 'Start of test: nreaders=6 '
	run --dry-run --cpus 1 --hunt
	expect_out 'Start of test: nreaders=4 '
}

t_hunt_preemption_counted() {
	run --duration 2 --stat-interval 1 --seed 3 --preempt-duration 1ms --preempt-interval 0.5ms \
		--json "$TEST_TMP/p.json"
	expect_status 0
	local p=$(injected preempts) sent delays
	sent=${p%/*} delays=${p#*/}
	((sent > 100 && delays > 50 && delays <= sent)) || die "preempts: $p"
	[[ $(jqr "$TEST_TMP/p.json" .final.preempts.sent) == "$sent" ]] || die "JSON preempts.sent"
	jqr "$TEST_TMP/p.json" '.final.preempts.max_delay_s > 0 and .final.preempts.delays > 0' >/dev/null
	jqr "$TEST_TMP/p.json" '.intervals | length >= 1 and (.[0].preempts.sent >= 0)' >/dev/null
	jqr "$TEST_TMP/p.json" '.config.preempt_duration_s == 0.001' >/dev/null
	# Off by default: the fields are there, at zero.
	run --duration 1 --stat-interval 0 --json "$TEST_TMP/off.json"
	expect_status 0
	[[ $(injected preempts) == 0/0 && $(injected races) == 0/0 ]] || die "not zero when off"
	jqr "$TEST_TMP/off.json" '.final.preempts.sent == 0 and .final.races.hits == 0 and .swarm == null' >/dev/null
}

t_hunt_race_delays_counted() {
	local f
	for f in prcu srcu "$PLUGINS/librcutorture-example.so"; do
		run --flavor "$f" --duration 2 --stat-interval 0 --seed 4 --race-delay 10 \
			--race-delay-max 0.2ms --json "$TEST_TMP/r.json"
		expect_status 0
		local r=$(injected races)
		((${r%/*} > 1000 && ${r#*/} > 50)) || die "$f: races: $r"
		jqr "$TEST_TMP/r.json" '.final.races.delays > 50 and .final.races.max_delay_s > 0' >/dev/null
	done
}

t_hunt_swarm_draw_reproducible() {
	run --dry-run --swarm --seed 11
	expect_status 0
	expect_out '^memb-torture: swarm: preempt=[^ ]+ race=[^ ]+ onoff=[^ ]+ floods=[^ ]+ barrier=[^ ]+ stutter=[^ ]+ nesting=[^ ]+ delays=[^ ]+ gprate=[^ ]+ gp=[a-z,]+ tight=(on|off) gpwrap=none call=(global|percpu|perthread) readercbs=(10|100|1000)$'
	local a=$(grep 'swarm:' "$OUT") start=$(grep 'Start of test' "$OUT") draws="" s
	run --dry-run --swarm --seed 11
	[[ $(grep 'swarm:' "$OUT") == "$a" && $(grep 'Start of test' "$OUT") == "$start" ]] ||
		die "seed 11 drew differently"
	# Other seeds draw other subsets.
	for s in 12 13 14 15; do
		run --dry-run --swarm --seed $s
		draws+="$(grep 'swarm:' "$OUT")"$'\n'
	done
	(($(sort -u <<<"$draws" | grep -c swarm) >= 3)) || die "4 seeds, too few draws: $draws"
	! grep -qF "$a" <<<"$draws" || die "seed 11's draw again"
	# Explicit options are kept and shown as given; capabilities respected.
	run --dry-run --swarm --seed 11 --onoff-interval 7ms --gp-sync --n-barrier-cbs 1
	expect_out ' onoff=given .* barrier=given .* gp=given tight='
	expect_out ' onoff_interval=7ms .* n_barrier_cbs=1 '
	# busted-hang has no polled or cookie grace periods: never drawn.
	draws=""
	for s in 1 2 3 4 5 6 7 8; do
		run --dry-run --swarm --seed $s --flavor busted-hang
		expect_status 0
		draws+="$(grep 'swarm:' "$OUT" | sed 's/.* gp=\([^ ]*\).*/\1/') "
	done
	[[ $draws =~ (sync|exp) && ! $draws =~ (poll|cond) ]] || die "busted-hang gp draws: $draws"
}

t_hunt_swarm_json() {
	run --swarm --seed 21 --duration 1 --stat-interval 0 --json "$TEST_TMP/s.json"
	expect_status 0
	local draw=$(grep 'swarm:' "$OUT" | sed 's/.*swarm: //')
	[[ $(jqr "$TEST_TMP/s.json" .swarm.draw) == "$draw" ]] || die "JSON swarm.draw"
	[[ $(jqr "$TEST_TMP/s.json" .swarm.features.gp) == "$(sed 's/.* gp=\([^ ]*\).*/\1/' <<<"$draw")" ]] || die "features.gp"
	jqr "$TEST_TMP/s.json" '.config.swarm == true and .config.hunt == false' >/dev/null
}

t_hunt_failing_swarm_run_names_the_draw() {
	run --flavor busted --swarm --seed 5 --duration 5 --stop-on-failure --stat-interval 0
	expect_status 1
	local draw=$(grep 'swarm:' "$OUT" | head -n 1 | sed 's/.*swarm: //')
	[[ -n $draw ]] || die "no draw"
	grep -A1 'First failure: at ' "$OUT" | grep -qF "busted-torture: First failure under swarm: $draw" ||
		die "the First failure lines do not name the draw"
}

# Correct flavors survive a short --hunt run.
t_hunt_correct_flavors_pass() {
	local f
	for f in memb qsbr prcu srcu "$PLUGINS/librcutorture-example.so"; do
		run --flavor "$f" --hunt --seed 7 --duration 3 --stat-interval 0
		expect_status 0
		expect_out 'End of test: SUCCESS: '
		expect_out ' hunt=1( |$)'
		[[ $(injected preempts) != 0/0 ]] || die "$f: --hunt preempted nothing"
	done
}

# --hunt catches mutants the default options miss or catch slowly.
# Idle each is caught within a second; beside eight busy loops a single
# 10 s run missed, so up to two bounded runs of 20 s each (a --hunt that
# lost its power still misses both).
TEST_LIMIT[t_hunt_catches_mutants]=200
t_hunt_catches_mutants() {
	local dir=${MUTANTS:-$(dirname "$PLUGINS")/mutants} m
	[[ -f $dir/librcutorture-mutant-qs-per-cpu.so ]] || die "no mutants in $dir: run make mutants"
	for m in qs-per-cpu barrier-skip wait-first; do
		run_caught 2 --flavor "$dir/librcutorture-mutant-$m.so" --hunt --seed 1 --duration 20 \
			--stop-on-failure --stat-interval 0
		expect_status 1
		expect_out "^mutant-$m-torture: First failure under swarm draw [0-9]+ \(from [0-9.]+ s\): preempt="
	done
}

# The value of KEY in the swarm line of FLAVOR's run ("" if none).
swarm_value() { # flavor key
	sed -n "s/^$1-torture: swarm: .* $2=\([0-9a-z]*\)\( .*\)\{0,1\}\$/\1/p" "$OUT"
}

# The swarm draws the callback queues' layout for a flavor that has one
# (issue 24 item 6: a per-CPU queue bug needed --call-rcu percpu by
# hand), the Start line runs it, a redraw keeps it, and --call-rcu given
# is kept.  So for --reader-cbs (readercbs, issue 25), for a flavor whose
# call() may be made in a section: 10, 100 or 1000, never off under
# --hunt; a flavor whose call() may block draws none.
t_swarm_draws_callback_queues_and_reader_callbacks() {
	local s modes="" mode rates="" rate
	for s in 1 2 3 4 5 6 7 8 9; do
		run --dry-run --hunt --seed $s
		expect_status 0
		mode=$(swarm_value memb call)
		[[ -n $mode ]] || die "seed $s: no call= in the draw"
		expect_out "Start of test: .* call_rcu=$mode( |\$)"
		modes+="$mode"$'\n'
		rate=$(swarm_value memb readercbs)
		[[ $rate =~ ^(10|100|1000)$ ]] || die "seed $s: --hunt drew readercbs='$rate'"
		expect_out "Start of test: .* reader_cbs=$rate( |\$)"
		rates+="$rate"$'\n'
	done
	(($(sort -u <<<"$modes" | grep -c .) == 3)) || die "9 seeds drew only: $(sort -u <<<"$modes" | tr '\n' ' ')"
	(($(sort -u <<<"$rates" | grep -c .) >= 2)) || die "9 seeds drew only: $(sort -u <<<"$rates" | tr '\n' ' ')"
	run --hunt --seed 3 --duration 2 --swarm-interval 0.2s --stat-interval 0
	expect_status 0
	expect_no_out 'swarm draw [0-9]+ at .* (call|readercbs)='
	run --dry-run --hunt --seed 3 --call-rcu perthread --reader-cbs 7
	expect_out '^memb-torture: swarm: .* call=given readercbs=given quiet=(20ms|off)$'
	expect_out 'Start of test: .* call_rcu=perthread( |$)'
	expect_out 'Start of test: .* reader_cbs=7( |$)'
	# A flavor without queue layouts draws none.
	run --dry-run --hunt --seed 3 --flavor prcu
	expect_no_out 'swarm: .* call='
	run --dry-run --hunt --seed 1 --flavor cds-instant
	expect_status 0
	expect_no_out 'readercbs='
}

# --swarm-interval draws again as the run goes on; the Start and End lines
# keep the first draw; the JSON counts the draws.
t_hunt_swarm_interval_redraws() {
	run --swarm --swarm-interval 0.2s --seed 31 --duration 2 --stat-interval 0 \
		--json "$TEST_TMP/i.json"
	expect_status 0
	expect_out '^memb-torture: swarm draw 1 at [0-9.]+ s: preempt=[^ ]+ race=[^ ]+ nesting=[^ ]+ delays=[^ ]+ gprate=[^ ]+ gp=[a-z,]+ tight=(on|off)$'
	local n=$(grep -c 'swarm draw [0-9]* at' "$OUT")
	((n >= 4)) || die "only $n draws in 2 s at 0.2 s"
	(($(grep 'swarm draw' "$OUT" | sed 's/.*s: //' | sort -u | wc -l) >= 3)) ||
		die "the draws do not change"
	[[ $(jqr "$TEST_TMP/i.json" .swarm.draws) == $((n + 1)) ]] || die "JSON swarm.draws"
	local start=$(grep -o 'Start of test: .*' "$OUT" | sed 's/Start of test: //')
	grep -qF "End of test: SUCCESS: $start" "$OUT" || die "the End line's options differ from the Start line's"
	expect_out ' swarm_interval=200ms( |$)'
	# --hunt draws again every second; an explicit interval is kept.
	run --dry-run --hunt --seed 1
	expect_out ' swarm_interval=1s( |$)'
	run --dry-run --hunt --seed 1 --swarm-interval 0
	expect_no_out 'swarm_interval='
}

# A failure names the draw in force when it came: its number, start and
# features, the same in the JSON document.
t_hunt_swarm_interval_failure_names_the_draw() {
	run --flavor busted --swarm --swarm-interval 0.1s --seed 5 --duration 5 \
		--stop-on-failure --stat-interval 0 --json "$TEST_TMP/f.json"
	expect_status 1
	local line=$(grep 'First failure under swarm draw' "$OUT")
	[[ $line =~ draw\ ([0-9]+)\ \(from\ ([0-9.]+)\ s\):\ (.*)$ ]] || die "no draw named: $line"
	local k=${BASH_REMATCH[1]} from=${BASH_REMATCH[2]} text=${BASH_REMATCH[3]}
	local at=$(jqr "$TEST_TMP/f.json" .first_failure.time_s)
	awk -v f="$from" -v a="$at" 'BEGIN { exit !(f <= a) }' || die "draw $k began at $from s, after the failure at $at s"
	if ((k == 0)); then
		grep -qF "busted-torture: swarm: $text" "$OUT" || die "draw 0 is not the swarm: line"
	else
		local w live=$(grep "swarm draw $k at" "$OUT" | sed 's/.* s: //')
		[[ -n $live ]] || die "no line for draw $k"
		for w in $live; do
			[[ " $text " == *" $w "* ]] || die "draw $k's $w is not in the failure's draw"
		done
	fi
	[[ $(jqr "$TEST_TMP/f.json" .swarm.at_first_failure.index) == "$k" ]] || die "JSON index"
	[[ $(jqr "$TEST_TMP/f.json" .swarm.at_first_failure.draw) == "$text" ]] || die "JSON draw"
}

# --gpwrap-lag: prcu and srcu start their counters short of the wrap,
# cross it (more grace periods than the lag) and pass.
t_hunt_gpwrap_lag_crosses_the_wrap() {
	local f gps
	for f in prcu srcu; do
		run --flavor "$f" --gpwrap-lag 3 --seed 2 --duration 3 --stat-interval 0
		expect_status 0
		expect_out ' gpwrap_lag=3( |$)'
		gps=$(sed -n 's/.*Rates over \([0-9.]*\) s: .* GPs\/s: \([0-9.]*\).*/\1 \2/p' "$OUT")
		awk -v g="$gps" 'BEGIN { split(g, x, " "); exit !(x[1] * x[2] > 10 && x[2] < 1e9) }' ||
			die "$f: grace periods (s, GPs/s) $gps: the wrap was not crossed"
	done
	# The swarm draws it for flavors that have the parameter only.
	run --dry-run --hunt --seed 3 --flavor prcu
	expect_out ' gpwrap=(off|10|100|1000)( |$)'
	run --dry-run --hunt --seed 3 --flavor prcu prcu.gpwrap_lag=7
	expect_out ' gpwrap=given( |$)'
}

# --hunt draws the barrier test and the counter wrap in every run (for a
# flavor with a barrier and gpwrap_lag): the catalogue's barrier and wrap
# mutants were missed in the seeds that drew them off.  Plain --swarm
# still draws them off in some runs.
t_hunt_draws_barrier_and_gpwrap_every_run() {
	local dir=${MUTANTS:-$(dirname "$PLUGINS")/mutants} s plain=0
	[[ -f $dir/librcutorture-mutant-flip.so ]] || die "no mutants in $dir: run make mutants"
	for s in $(seq 1 24); do
		run --dry-run --hunt --seed "$s" --flavor "$dir/librcutorture-mutant-flip.so"
		expect_status 0
		expect_out '^mutant-flip-torture: swarm: .* barrier=(2|4) .* gpwrap=(10|100|1000)( |$)'
		run --dry-run --swarm --seed "$s" --flavor "$dir/librcutorture-mutant-flip.so"
		grep -Eq 'swarm: .*(barrier=off|gpwrap=off)' "$OUT" && plain=$((plain + 1))
	done
	((plain > 0)) || die "plain --swarm drew the barrier test and the wrap in all 24 seeds"
}

# Under --hunt tight reads are drawn in runs that take CPUs offline too,
# and while a draw has them on, no CPU goes offline (the two take turns):
# seed 5 draws tight=on, seed 6 tight=off, one draw each.  Plain --swarm
# never draws both.
t_hunt_tight_reads_hold_offlining() {
	local dir=${MUTANTS:-$(dirname "$PLUGINS")/mutants} s
	[[ -f $dir/librcutorture-mutant-flip.so ]] || die "no mutants in $dir: run make mutants"
	run --flavor "$dir/librcutorture-mutant-flip.so" --hunt --seed 5 --onoff-interval 20ms \
		--swarm-interval 0 --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^mutant-flip-torture: swarm: .* onoff=given .* tight=on '
	expect_out ' onoff: 0/0:0/0 '
	run --flavor "$dir/librcutorture-mutant-flip.so" --hunt --seed 6 --onoff-interval 20ms \
		--swarm-interval 0 --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^mutant-flip-torture: swarm: .* tight=off '
	expect_out ' onoff: [0-9]+/[0-9]+:[1-9][0-9]*/[0-9]+ '
	for s in $(seq 1 30); do
		run --dry-run --swarm --seed "$s" --flavor "$dir/librcutorture-mutant-flip.so"
		expect_no_out 'swarm: .*onoff=[0-9].* tight=on'
	done
}

# --hunt: a grace-period wait left blocked while many that began after it
# returned has lost its wakeup, a stall after half of --stall-timeout
# (5 s) instead of the whole (the lost-wakeup mutant's median was the
# 10 s timeout).  Without --hunt, the timeout as before.  The first run
# keeps overtakers coming: eight fake writers, and only waits of which the
# mutant loses some (synchronize) or none (expedited, polled).  With all
# five kinds and four fake writers, a loaded machine (CI; 4 busy loops
# here) lost every waiter within 0.2 s in 5 of 8 runs, so no wait could
# overtake: callbacks posted after the stuck wait began and invoked count
# too, which the second run shows with one waiter and only callbacks to
# overtake it (--hunt's barrier test posts them); it stalled at the
# timeout when only waits counted.  The time checked is how long the wait
# was stuck, not when the run stalled: the wakeup is lost when the
# schedule allows, later under load.
TEST_LIMIT[t_hunt_overtaken_wait_stalls_early]=240
t_hunt_overtaken_wait_stalls_early() {
	local dir=${MUTANTS:-$(dirname "$PLUGINS")/mutants}
	[[ -f $dir/librcutorture-mutant-lost-wakeup.so ]] || die "no mutants in $dir: run make mutants"
	run_caught 3 --flavor "$dir/librcutorture-mutant-lost-wakeup.so" --hunt --seed 1 --duration 20 \
		--gp-sync --gp-exp --gp-poll --nfakewriters 8 \
		--stop-on-failure --stat-interval 0 --json "$TEST_TMP/w.json"
	expect_status 4
	expect_out "^mutant-lost-wakeup-torture: STALL at [0-9.]+ s: (writer|fakewriter) [0-9]+ stuck in [a-z_ ]+ for [5-9]\.[0-9]+ s$BEHIND_READERS, while 16 or more grace-period waits or callbacks that began after it completed \(--stall-timeout 10.0 s\)"
	run_caught 3 --flavor "$dir/librcutorture-mutant-lost-wakeup.so" --hunt --seed 1 --duration 20 \
		--gp-sync --nfakewriters 0 --stop-on-failure --stat-interval 0
	expect_status 4
	expect_out "^mutant-lost-wakeup-torture: STALL at [0-9.]+ s: writer 0 stuck in synchronize for [5-9]\.[0-9]+ s$BEHIND_READERS, while 16 or more grace-period waits or callbacks that began after it completed"
	run_caught 3 --flavor "$dir/librcutorture-mutant-lost-wakeup.so" --seed 1 --duration 20 \
		--stop-on-failure --stat-interval 0
	expect_status 4
	expect_out "^mutant-lost-wakeup-torture: STALL at [0-9.]+ s: [a-z-]+ [0-9]+ stuck in [a-z_ ]+ for 1[0-9]\.[0-9]+ s$BEHIND_READERS \(--stall-timeout 10\.0 s\)\$"
	expect_no_out 'grace-period waits or callbacks that began after it'
}

# Quiet spells (issue 46): for a flavor whose grace periods sleep on a
# wakeup word, --hunt draws them in about half the draws, again every
# second, last in the draw; never for a flavor without that word, nor
# with --stutter given, nor under plain --swarm.  A run with them
# passes on a correct flavor; Debian 13's liburcu is caught with them
# (liburcu_version.sh).
t_hunt_quiet_spells_for_a_flavor_with_a_wakeup_word() {
	run --dry-run --hunt --seed 1 --flavor qsbr
	expect_status 0
	expect_out '^qsbr-torture: swarm: .* readercbs=[0-9]+ quiet=(20ms|off)$'
	run --dry-run --hunt --seed 1 --flavor qsbr --stutter 1s
	expect_no_out 'quiet='
	run --dry-run --hunt --seed 1 --flavor prcu
	expect_no_out 'quiet='
	run --dry-run --swarm --seed 1 --flavor qsbr
	expect_no_out 'quiet='
	run --hunt --seed 3 --flavor qsbr --swarm-interval 0.1s --duration 3 --stat-interval 0
	expect_status 0
	expect_out '^qsbr-torture:--- End of test: SUCCESS: '
	expect_out '^qsbr-torture: swarm draw [0-9]+ at [0-9.]+ s: .* quiet=20ms$'
	expect_out '^qsbr-torture: swarm draw [0-9]+ at [0-9.]+ s: .* quiet=off$'
}
