# Integration tests: every liburcu flavor, callback modes, the GP mix,
# read-exit churn and the callback-accounting negative controls.

# A value from the final report: field NAME of line LINE (e.g. "Callbacks"
# "early").
report_field() { # line-label field
	grep "torture: $1:" "$OUT" | tail -n 1 | sed -E "s/.* $2: ([0-9]+).*/\1/"
}

# The run in $OUT ended SUCCESS with a clean pipe and clean callbacks.
expect_clean_success() { # flavor
	expect_status 0
	expect_out "^$1-torture:--- End of test: SUCCESS: "
	(($(pipe_slot 0) > 0)) || die "$1: pipe stage 0 count is zero"
	(($(pipe_late_sum) == 0)) || die "$1: pipe stages >= 2 are non-zero"
	(($(report_field Callbacks early) == 0)) || die "$1: early callbacks"
	(($(report_field Callbacks duplicate) == 0)) || die "$1: duplicate callbacks"
	(($(report_field Callbacks lost) == 0)) || die "$1: lost callbacks"
}

t_each_liburcu_flavor_succeeds() {
	# The writer picks GP kinds at random, and bp's slow GPs leave about
	# 20 in 2 s: none may be a call_rcu (1 run in 100).  A flood after
	# 500 ms posts callbacks whatever the writer picks.
	for f in memb mb signal qsbr bp; do
		run --flavor $f --duration 2 --stat-interval 0 --read-exit-delay 200ms --read-exit-burst 4 \
			--fwd-progress-holdoff 500ms
		expect_clean_success $f
		(($(pipe_slot 1) > 0)) || die "$f: pipe stage 1 count is zero"
		(($(report_field Callbacks invoked) > 0)) || die "$f: no callbacks invoked"
		grep -qE "read-exits: [1-9]" "$OUT" || die "$f: no read-exit threads ran"
	done
}

t_call_rcu_modes() {
	for m in global percpu perthread; do
		for f in memb mb signal qsbr bp; do
			run --flavor $f --call-rcu $m --gp-normal --duration 1 --stat-interval 0
			expect_clean_success $f
			expect_out " call_rcu=$m "
			(($(report_field Callbacks invoked) > 0)) || die "$f/$m: no callbacks invoked"
		done
	done
}

t_long_flavor_names_are_aliases() {
	run --flavor urcu-qsbr --duration 1
	expect_status 0
	expect_out '^qsbr-torture:--- End of test: SUCCESS'
}

t_each_gp_primitive_alone() {
	local k other
	for k in sync exp normal cond poll; do
		run --flavor memb --gp-$k --duration 1.5 --stat-interval 0
		expect_clean_success memb
		expect_out " gp_$k=1"
		(($(report_field 'Writer GPs' $k) > 0)) || die "--gp-$k: the writer never used it"
		for other in sync exp normal cond poll; do
			[[ $other == "$k" ]] && continue
			(($(report_field 'Writer GPs' $other) == 0)) || die "--gp-$k: the writer also used $other"
		done
	done
	# Without --gp-normal the writer posts no callbacks at all (readers
	# post theirs by default: --reader-cbs 0; so does the default barrier
	# test: --n-barrier-cbs 0).
	run --flavor qsbr --gp-sync --gp-cond --duration 1 --stat-interval 0 --read-exit-burst 0 --reader-cbs 0 \
		--n-barrier-cbs 0
	expect_clean_success qsbr
	(($(report_field Callbacks invoked) == 0)) || die "--gp-sync --gp-cond posted callbacks"
	(($(report_field 'Writer GPs' cond) > 0)) || die "--gp-cond unused"
}

t_default_mix_uses_every_primitive() {
	run --flavor mb --duration 2 --stat-interval 0
	expect_clean_success mb
	for k in sync exp normal cond poll; do
		(($(report_field 'Writer GPs' $k) > 0)) || die "default mix never used $k"
	done
}

t_missing_primitive_is_a_usage_error() {
	run --flavor busted --gp-poll
	expect_status 2
	expect_err '^rcutorture: --gp-poll: flavor busted has no polled grace periods'
	run --flavor busted --gp-cond
	expect_status 2
	expect_err '^rcutorture: --gp-cond: flavor busted has no grace-period cookies'
	run --flavor busted --call-rcu perthread
	expect_status 2
	expect_err '^rcutorture: --call-rcu: flavor busted has only one callback queue'
	run --call-rcu sometimes
	expect_status 2
	expect_err "^rcutorture: --call-rcu: 'sometimes' is not valid; expected global, percpu or perthread"
	run --read-exit-burst -1
	expect_status 2
	expect_err '^rcutorture: --read-exit-burst'
}

t_read_exit_churn_can_be_disabled() {
	run --duration 1 --read-exit-burst 0 --read-exit-delay 10ms
	expect_status 0
	expect_out 'read-exits: 0 preempts: '
	# Until two bursts are done, however long a loaded machine takes to
	# start their threads (an ASan build beside the suite took over 1 s
	# for one), then no more than bursts of 3 every 50 ms allow over the
	# run's own length (plus the one the stop may cut).
	local n secs
	run_until "n=\$(grep -o 'read-exits: [0-9]*' \"\$OUT\" | tail -n 1 | cut -d' ' -f2); (( \${n:-0} >= 6 ))" \
		--duration 60 --stat-interval 0.1s --read-exit-burst 3 --read-exit-delay 50ms
	expect_status 0
	n=$(grep 'read-exits:' "$OUT" | tail -n 1 | sed 's/.*read-exits: \([0-9]*\).*/\1/')
	secs=$(sed -n 's/.*Rates over \([0-9.]*\) s:.*/\1/p' "$OUT" | tail -n 1)
	((n >= 6)) || die "expected 6 or more read-exits, got $n"
	awk -v n="$n" -v s="$secs" 'BEGIN { exit !(n <= 3 * (s / 0.05 + 2)) }' ||
		die "$n read-exits in $secs s: more than bursts of 3 every 50 ms"
}

# A read-exit thread waits in pthread_join while its child registers and
# reads: blocked, it is off its simulated CPU, so a child that registers
# slowly (400 ms each here; an ASan build on a loaded machine took over
# 1 s for a burst) holds no CPU offline up. Before the fix: RCU_HOTPLUG,
# "read-exit 0 (waiting) did not leave it within 1.0 s".
t_read_exit_join_leaves_its_cpu() {
	[[ -f $PLUGINS/librcutorture-example.so ]] || { echo "SKIP: no plugins (make plugins)"; return 0; }
	run --flavor "$PLUGINS/librcutorture-example.so" --duration 4 --cpus 2 --onoff-interval 20ms \
		--read-exit-delay 10ms --read-exit-burst 8 example.register_delay_us=400000 --stat-interval 0
	expect_status 0
	expect_out '^example-torture:--- End of test: SUCCESS: '
	local rtc=$(grep ': rtc: ' "$OUT" | tail -n 1)
	[[ $rtc =~ onoff:\ ([0-9]+)/ ]] && ((BASH_REMATCH[1] >= 10)) || die "fewer than 10 offlines: $rtc"
	[[ $rtc =~ read-exits:\ ([0-9]+) ]] && ((BASH_REMATCH[1] >= 2)) || die "fewer than 2 read-exits: $rtc"
}

# An early callback frees an element a reader still holds, so the
# readers' checks may fire first; the callback check must fire too (the
# whole run, not --stop-on-failure, so that it has the time to).
t_early_callbacks_fail() {
	run --flavor busted-cb busted-cb.fault=early --duration 3
	expect_status 1
	expect_first_check 'early callback|too-short grace period|rtmbe'
	# Readers post callbacks too (--reader-cbs, 1000 by default), and so
	# does the barrier test (on by default): the first early one may be
	# any of them (a fresh clone's ASan lane saw a barrier callback).
	expect_check_failed 'early callback' '(element aging|reader|barrier) callback .* while reader [0-9]+ was still in the read-side section.*'
	expect_out 'End of test: FAILURE'
}

t_duplicate_callbacks_fail() {
	# --n-barrier-cbs 0: the default barrier test's callbacks are invoked
	# twice too, and are not the ones asserted here.
	run --flavor busted-cb busted-cb.fault=twice --duration 2 --stat-interval 0 --n-barrier-cbs 0
	expect_status 1
	expect_out '^busted-cb-torture: !!! first failure at [0-9.]+ s: duplicate callback: (element aging|reader) callback .* invoked again'
	(($(report_field Callbacks duplicate) > 0)) || die "no duplicates counted"
	expect_out '^busted-cb-torture: !!! Reader Pipe'
}

# No fake writers, --gp-normal and no barrier test (on by default): no
# barrier and no grace-period wait during the run, so only the final
# barrier can find the lost callbacks.
t_lost_callbacks_fail() {
	run --flavor busted-cb busted-cb.fault=lose busted-cb.every=4 --gp-normal --nfakewriters 0 --duration 1 --stat-interval 0 \
		--n-barrier-cbs 0
	expect_status 1
	expect_out 'lost callbacks: [0-9]+ callbacks were never invoked by the final barrier'
	(($(report_field Callbacks lost) > 0)) || die "no lost callbacks counted"
}

# Issue 45 item 1: callbacks the flavor invokes after the report (its
# cleanup delivers the ones it held back) find the harness's memory
# still there and are ignored: before, the thread table was freed at the
# end of the round and the ASan build read it (heap-use-after-free in the
# witness check of the callback's re-post); ThreadSanitizer once saw a
# liburcu worker's barrier callback against the barrier test's free.
t_callbacks_after_the_report_are_ignored() {
	run --flavor busted-cb busted-cb.fault=late --duration 2 --stat-interval 0
	expect_status 1
	expect_out 'Failed check: lost callbacks: .* [0-9]+ callbacks were never invoked by the final barrier'
	tail -n 1 "$OUT" | grep -q -- '--- End of test: FAILURE: ' || die "output after the End line: $(tail -n 2 "$OUT")"
}

# Issue 13 item 13: a lost callback is a FAILURE within a few grace
# periods of the barrier that proves it lost, not a STALL at
# --stall-timeout (before, this run ended STALL, exit 4, after 30 s).
t_lost_callback_found_before_stall_timeout() {
	# --n-barrier-cbs 0: the default barrier test finds the loss first, as
	# rtbe (a fresh clone's CI), which is not the check asserted here.
	run --scenario BUSTED-CB busted-cb.fault=lose --stall-timeout 30s --duration 60 --n-barrier-cbs 0
	expect_status 1
	# Any callback may be the first lost: the scenario's readers post
	# theirs too (a fresh clone's CI: a reader callback, at load 6).
	expect_out '^busted-cb-torture: !!! first failure at [0-9.]+ s: lost callback: [a-z -]+ callback 0x[0-9a-f]+ not invoked: its call\(\) returned [0-9.]+ s before a barrier began, which returned [0-9.]+ s ago, and 4 grace periods that began after that have ended$'
	expect_out '^busted-cb-torture: First failure: at [0-9.]+ s, caught by: lost callback$'
	expect_no_out 'STALL'
	# Before the 30 s stall timeout, by the report's clock (idle: under
	# 1 s; how much sooner is make bench's business, not a window here).
	expect_report_time_below 'First failure: at' 30 'the lost callback'
}

# Correct flavors never trip the lost-callback check, with the barrier
# test and CPU hotplug on (callbacks posted from CPUs that go offline).
t_lost_callback_check_quiet_on_correct_flavors() {
	local f
	for f in memb qsbr srcu prcu; do
		run --flavor "$f" --duration 2 --n-barrier-cbs 4 --onoff-interval 50ms --cpus 4 --stat-interval 0
		# A CPU whose threads do not leave within 1 s on a loaded
		# machine ends RCU_HOTPLUG (3); no check may fail (1).
		[[ $STATUS == 0 || $STATUS == 3 ]] || die "$f: exit status $STATUS"
		expect_no_out 'lost callback|First failure: at .* caught by: [^C]'
		expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
	done
}

t_list_flavors_shows_every_flavor() {
	run --list-flavors -v
	expect_status 0
	for f in memb mb signal qsbr bp busted busted-cb; do
		expect_out "^$f +"
	done
	expect_out '^ +primitives: sync,exp=sync,call,barrier,call-modes,poll,cond,qsbr'
	expect_out '^ +busted-cb.fault=early: '
	expect_out '^exp=sync: '
}

# Issue 26 item 10: by default a line per flavor (its lines were up to 356
# characters long with every parameter); -v adds the details, and the
# flavor --flavor names gets them alone.
t_list_flavors_short_by_default() {
	run --list-flavors
	expect_status 0
	expect_out '^prcu +PRCU'
	expect_out '^memb-sb +liburcu'
	expect_no_out 'primitives: |prcu\.migrate_cbs=|aliases: |^exp=sync: '
	expect_out '^-v shows each flavor'
	awk 'length($0) > 132 { print; bad = 1 } END { exit bad }' "$OUT" >"$TEST_TMP/long" ||
		die "lines over 132 characters: $(head -n 1 "$TEST_TMP/long")"
	run --flavor prcu --list-flavors
	expect_status 0
	expect_out '^ +prcu\.migrate_cbs=1: '
	expect_no_out 'srcu\.policy='
	expect_no_out '^-v shows'
	run --flavor memb-sb --list-flavors
	expect_status 0
	expect_out '^   plugin: .*/librcutorture-memb-sb\.so$'
	expect_no_out 'cds-buffered.capacity='
	run --list-flavors -v
	expect_out 'srcu\.policy=final: '
	expect_out '^ +cds-buffered\.capacity=256: '
}

# --list-flavors is a table: every description starts in one column, past
# the longest name (busted-barrier and busted-hotplug overflowed a fixed
# 10-character column), and every detail line is indented alike.
t_list_flavors_columns_align() {
	run --list-flavors -v
	expect_status 0
	awk '
		/^$/ { exit }
		/^[^ ]/ {
			n++
			if (length($1) > longest) longest = length($1)
			match($0, /^[^ ]+ +/); col[n] = RLENGTH; line[n] = $0
			next
		}
		{ match($0, /^ +/); indent[RLENGTH]++ }
		END {
			for (i = 1; i <= n; i++)
				if (col[i] != longest + 1) {
					print "description not in column " longest + 1 ": " line[i]
					bad = 1
				}
			for (w in indent)
				if (w != longest + 3) {
					print indent[w] " detail lines indented " w ", not " longest + 3
					bad = 1
				}
			if (n < 10) { print "only " n " flavors"; bad = 1 }
			exit bad
		}' "$OUT" >"$TEST_TMP/bad" || die "$(head -n 3 "$TEST_TMP/bad")"
}
