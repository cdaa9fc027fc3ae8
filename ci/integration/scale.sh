# Integration tests: --test scale (rcuscale).

# A short measurement: no holdoff, a few samples.
SCALE_SHORT=(--test scale --holdoff 0 --duration 0.2 --min-samples 20 --writer-holdoff 1ms)

# The kernel's output structure, and the summary recomputed from the
# writer-duration lines with kvm-recheck-rcuscale.sh's arithmetic.
expect_scale_report() { # flavor
	local fl=$1 n gps sorted
	expect_status 0
	expect_out "^$fl-scale:--- Start of test: gp_async=0 .* nwriters=1 "
	expect_out "^$fl-scale: writer 0 gps: [0-9]+$"
	expect_out "^$fl-scale: start: [0-9]+ end: [0-9]+ duration: [0-9]+ gps: [0-9]+ batches: [0-9]+$"
	expect_out "^$fl-scale: discarded [0-9]+ grace periods in flight at the stop$"
	expect_out '^Histogram bucket size: [0-9.e+-]+$'
	expect_out '^Average grace-period duration: [0-9.e+]+ microseconds$'
	for what in Minimum '50th percentile' '90th percentile' '99th percentile' Maximum; do
		expect_out "^$what grace-period duration: [0-9.e+]+$"
	done
	expect_out '^Grace periods: [0-9]+ Batches: 1 Ratio: [0-9]+$'
	expect_out "^$fl-scale: Writer CPU time: [0-9.]+ us for [0-9]+ grace periods started$"
	expect_out '^Updater CPU utilization: [0-9.e+-]+% of one CPU over [0-9.e+-]+ s$'
	expect_out '^Updater CPU time per grace period: [0-9.e+]+ microseconds \(writers [0-9.e+]+, flavor threads [0-9.e+]+\)$'
	expect_out "^$fl-scale:--- End of test: SUCCESS: "
	gps=$(sed -n "s/^$fl-scale: writer 0 gps: //p" "$OUT")
	n=$(grep -c "^$fl-scale: *0 writer-duration: " "$OUT")
	((n == gps && n >= 20)) || die "$n writer-duration lines for $gps grace periods"
	# Percentile k of N sorted samples is the int(N*k/100)-th (min 1).
	sorted=$(awk '/writer-duration:/ { print $5 / 1000. }' "$OUT" | sort -g)
	for p in 50 90 99; do
		local want got
		want=$(awk -v p=$p -v n="$n" 'BEGIN { i = int(n * p / 100); if (i < 1) i = 1 } NR == i' <<<"$sorted")
		got=$(summary_value "${p}th percentile grace-period duration:")
		awk -v a="$want" -v b="$got" 'BEGIN { exit !(a == b) }' || die "p$p: printed $got, the samples say $want"
	done
}

scale_report_of() { # flavor
	run "${SCALE_SHORT[@]}" --flavor "$1" --nreaders 1 --verbose
	expect_scale_report "$1"
}

t_scale_report_memb() { scale_report_of memb; }
t_scale_report_mb() { scale_report_of mb; }
t_scale_report_signal() { scale_report_of signal; }
t_scale_report_qsbr() { scale_report_of qsbr; }
t_scale_report_bp() { scale_report_of bp; }
t_scale_report_prcu() { scale_report_of prcu; }
t_scale_report_srcu() { scale_report_of srcu; }

# Without --verbose, every sample of a short run is a writer-duration
# line (kvm-recheck-rcuscale.sh reads them), as with it; -q prints none.
t_scale_without_readers_or_verbose() {
	local w gps n
	run "${SCALE_SHORT[@]}" --nreaders 0 --nwriters 2
	expect_status 0
	expect_out '^memb-scale:--- Start of test: .* nreaders=0 nwriters=2 '
	expect_out '^memb-scale: writer 1 gps: [0-9]+$'
	expect_no_out 'printing one in'
	for w in 0 1; do
		gps=$(sed -n "s/^memb-scale: writer $w gps: //p" "$OUT")
		n=$(grep -c "^memb-scale: *$w writer-duration: " "$OUT")
		((n == gps && n > 0)) || die "writer $w: $n writer-duration lines for $gps grace periods"
	done
	expect_out '^50th percentile grace-period duration: '
	run "${SCALE_SHORT[@]}" --nreaders 0 -q
	expect_status 0
	expect_no_out 'writer-duration'
	expect_out '^50th percentile grace-period duration: '
}

t_scale_expedited_and_async() {
	run "${SCALE_SHORT[@]}" --gp-exp --nreaders 1
	expect_status 0
	expect_out '^memb-scale:--- Start of test: gp_async=0 gp_async_max=1000 gp_exp=1 '
	expect_out '^memb-scale: flavor memb has no expedited grace period: --gp-exp times its synchronize$'
	run "${SCALE_SHORT[@]}" --gp-async --gp-async-max 50 --nreaders 1
	expect_status 0
	expect_out '^memb-scale:--- Start of test: gp_async=1 gp_async_max=50 gp_exp=0 '
	expect_out '^memb-scale: batches: [0-9]+ grace periods per batch: '
	# liburcu's call_rcu worker batches callbacks: fewer GPs than calls.
	local gps batches
	read -r gps batches < <(sed -n 's/^memb-scale: start: .* gps: \([0-9]*\) batches: \([0-9]*\)$/\1 \2/p' "$OUT")
	((batches < gps)) || die "async: $batches batches for $gps callbacks"
	expect_out '^memb-scale: Grace-period worker CPU time: [0-9.]+ us \([1-9][0-9]* threads of the flavor\)$'
}

# p50 with a holdout reader against p50 without, in one test.  The
# writer pauses 1 ms between grace periods: back to back, every other one
# would slip through the microseconds the holdout spends between two
# sections (a real effect, but not the one measured here).
holdout_raises_p50() { # flavor
	local without with
	run --test scale --flavor "$1" --holdoff 0 --duration 0 --min-samples 30 --nreaders 0 --writer-holdoff 1ms
	expect_status 0
	without=$(summary_value '50th percentile grace-period duration:')
	run --test scale --flavor "$1" --holdoff 0 --duration 0 --min-samples 30 --nreaders 0 --writer-holdoff 1ms --pd-test --pd-busy-wait 10ms
	expect_status 0
	expect_out "^$1-scale:--- Start of test: .* pd_test=1 pd_busy_wait=10ms pd_resched=0 "
	with=$(summary_value '50th percentile grace-period duration:')
	# A GP waits for the rest of a 10 ms section: ms, against us without.
	awk -v a="$without" -v b="$with" 'BEGIN { exit !(b > 10 * a && b > 1000) }' ||
		die "$1: p50 $with us with the holdout, $without us without"
}

t_scale_holdout_raises_percentiles_memb() { holdout_raises_p50 memb; }
t_scale_holdout_raises_percentiles_qsbr() { holdout_raises_p50 qsbr; }

t_scale_holdout_resched() {
	run --test scale --flavor qsbr --holdoff 0 --duration 0 --min-samples 30 --nreaders 0 --pd-test --pd-busy-wait 50ms --pd-resched
	expect_status 0
	# A quiescent state every 1 ms: no GP waits anywhere near 50 ms.
	local p50
	p50=$(summary_value '50th percentile grace-period duration:')
	awk -v a="$p50" 'BEGIN { exit !(a < 20000) }' || die "p50 $p50 us with --pd-resched"
}

# The run is interrupted while a GP waits for a 5 s holdout section: that
# GP ends after the stop, so it is discarded, never counted.
t_scale_grace_period_in_flight_at_stop_is_discarded() {
	run_interrupted --test scale --holdoff 0 --nreaders 0 --duration 60 --pd-test \
		--pd-busy-wait 5s --verbose
	expect_status 0
	expect_out '^memb-scale: SIGINT received, stopping$'
	expect_out '^memb-scale: writer 0 gps: 0$'
	expect_out '^memb-scale: discarded 1 grace periods in flight at the stop$'
	expect_out '^memb-scale: interrupted before every writer had --min-samples 100 grace periods'
	expect_out '^No rcuscale records found\?\?\?$'
	expect_no_out 'writer-duration'
}

# At a normal end too: the GP that completes the measurement counts, the
# one started after it is in flight at the stop and does not.
t_scale_normal_end_discards_the_next_grace_period() {
	run --test scale --holdoff 0 --nreaders 0 --duration 0 --min-samples 1 --pd-test --pd-busy-wait 500ms --verbose
	expect_status 0
	expect_out '^memb-scale: writer 0 gps: 1$'
	expect_out '^memb-scale: discarded 1 grace periods in flight at the stop$'
	expect_out '^memb-scale: +0 writer-duration: +0 [0-9]{9,10}$'
}

t_scale_hung_grace_period_is_a_stall() {
	run --test scale --flavor busted-hang --stall-timeout 1s --holdoff 0 --nreaders 1
	expect_status 4
	expect_out '^busted-hang-scale: STALL at [0-9.]+ s: writer 0 stuck in synchronize for [0-9.]+ s'
	expect_out '^busted-hang-scale: backtrace of writer 0 \(torture thread, tid [0-9]+\), in synchronize:'
	expect_out 'busted_hang_synchronize\+0x'
	expect_out '^busted-hang-scale:--- End of test: STALL: '
	expect_report_time_below 'STALL at' 15 'the stall'
}

t_scale_lost_callback_is_a_stall() {
	run --test scale --flavor busted-hang busted-hang.hang=call --gp-async --stall-timeout 1s --holdoff 0 --nreaders 0
	expect_status 4
	expect_out "^busted-hang-scale: STALL at [0-9.]+ s: writer 0's callback 0x[0-9a-f]+ not invoked [0-9.]+ s after call\(\)"
	expect_out '^busted-hang-scale:--- End of test: STALL: '
}

# --dry-run prints the Start line the run would print and starts nothing:
# a 1-hour measurement ends at once, without an End line.
t_scale_dry_run_starts_nothing() {
	local start=$SECONDS
	run --test scale --dry-run --duration 1h --holdoff 1h --nwriters 3 --seed 5 --cpus 2
	expect_status 0
	((SECONDS - start < 5)) || die "the dry run took $((SECONDS - start)) s"
	expect_out '^memb-scale:--- Start of test: .* nwriters=3 .* seed=5$'
	! grep -q 'End of test\|grace-period duration' "$OUT" || die "the dry run measured"
	[[ $(wc -l <"$OUT") == 1 ]] || die "the dry run printed more than its Start line"
}
