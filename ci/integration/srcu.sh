# Integration tests: the SRCU flavor, its delay policies and tunables.

t_srcu_succeeds_under_onoff_barrier_and_flood() {
	expect_survives_onoff_barrier_and_flood srcu
	(($(pipe_late_sum) == 0)) || die "pipe stages >= 2"
}

t_srcu_every_policy_and_gp_primitive() {
	local p
	for p in v5.18 282d 640a final; do
		run --flavor srcu srcu.policy=$p srcu.hz=250 --duration 1 --stat-interval 0
		expect_status 0
		expect_out " srcu.policy=$p srcu.hz=250"
		expect_out 'End of test: SUCCESS'
	done
	expect_each_gp_primitive_succeeds srcu
}

# The kernel's srcu_might_be_idle(): a synchronize() 1 ms after the last
# grace period, with no callbacks queued, is expedited; exp_holdoff=0
# turns that off.
srcu_idle_synchronize() { # exp_holdoff: sets GPS and AUTOEXP
	run --test scale --flavor srcu --gp-sync --nreaders 0 --writer-holdoff 1ms --holdoff 0 \
		--duration 0 --min-samples 50 srcu.exp_holdoff="$1"
	expect_status 0
	GPS=$(sed -n 's/^srcu: .* gps \([0-9]*\) .*/\1/p' "$OUT")
	AUTOEXP=$(sed -n 's/^srcu: .* autoexp \([0-9]*\) .*/\1/p' "$OUT")
	[[ -n $GPS && -n $AUTOEXP ]] || die "no srcu state line with gps and autoexp"
}

t_srcu_idle_synchronize_is_expedited() {
	srcu_idle_synchronize 25000
	((GPS >= 50 && AUTOEXP * 10 >= GPS * 9)) || die "default: $AUTOEXP of $GPS synchronize calls expedited"
	srcu_idle_synchronize 0
	((GPS >= 50 && AUTOEXP == 0)) || die "exp_holdoff=0: $AUTOEXP of $GPS synchronize calls expedited"
	expect_out '^srcu: .* needed_exp 0 '
}

t_srcu_tunables() {
	run --flavor srcu srcu.max_nodelay_phase=1 srcu.max_nodelay=10 srcu.retry_check_delay=1 --duration 1 --stat-interval 0
	expect_status 0
	run --list-flavors -v
	expect_out '^srcu +Tree-SRCU'
	expect_out 'srcu.policy=final: '
	expect_out 'srcu.max_nodelay_phase=-1: '
	run --flavor srcu srcu.hz=50
	expect_status 2
	expect_err "srcu.hz: bad value '50'; expected an integer from 100 to 1000"
	run --flavor srcu srcu.exp_holdoff=-1
	expect_status 2
	expect_err "srcu.exp_holdoff: bad value '-1'; expected an integer from 0 to 1000000000"
	run --flavor srcu srcu.policy=v6
	expect_status 2
	expect_err "srcu.policy: bad value 'v6'; expected one of v5.18, 282d, 640a, final"
}


# Workload B of the bench, short: a reader sleeps in its section while
# the writer waits on expedited grace periods.  Before 2022 the worker
# re-polls without ever sleeping (a whole CPU); every later policy sleeps
# jiffies between polls.  The test counts the worker's requeues, with
# and without a delay; the CPU share they cost depends on what else the
# machine runs and is make bench's figure (ci/bench/srcu, workload B).
srcu_blocked_reader_cpu() { # policy: sets CPU_PCT, GPS, NODELAY, DELAYED
	run --test scale --flavor srcu --gp-exp --nreaders 0 --holdoff 0 --duration 0.6 \
		--min-samples 2 --pd-test --pd-sleep --pd-busy-wait 200ms srcu.policy="$1" srcu.hz=250
	expect_status 0
	expect_out '^srcu-scale:--- Start of test: .* pd_test=1 pd_busy_wait=200ms pd_resched=0 pd_sleep=1 '
	# Every grace period waits for the rest of a 200 ms sleep.
	awk -v a="$(summary_value '50th percentile grace-period duration:')" \
		'BEGIN { exit !(a > 50000 && a < 400000) }' || die "$1: p50 not near the sleep"
	CPU_PCT=$(sed -n 's/^Updater CPU utilization: \([0-9.e+-]*\)% of one CPU over [0-9.e+-]* s$/\1/p' "$OUT")
	[[ -n $CPU_PCT ]] || die "no 'Updater CPU utilization' line"
	GPS=$(sed -n 's/^srcu: .* gps \([0-9]*\) .*/\1/p' "$OUT")
	NODELAY=$(sed -n 's/^srcu: .* requeues nodelay \([0-9]*\) .*/\1/p' "$OUT")
	DELAYED=$(sed -n 's/^srcu: .* requeues nodelay [0-9]* delayed \([0-9]*\) .*/\1/p' "$OUT")
	[[ -n $GPS && -n $NODELAY && -n $DELAYED ]] || die "no srcu state line with gps and requeues"
}

# v5.18 re-polls back to back for the whole 200 ms (hundreds of requeues
# per grace period, none delayed); the final policy sleeps in every one.
t_srcu_blocked_reader_spins_a_cpu_only_before_2022() {
	srcu_blocked_reader_cpu v5.18
	((GPS >= 2 && DELAYED == 0 && NODELAY >= 100 * GPS)) ||
		die "v5.18: $NODELAY requeues without a delay and $DELAYED with one for $GPS grace periods (updater CPU $CPU_PCT%)"
	srcu_blocked_reader_cpu final
	((GPS >= 2 && DELAYED >= GPS)) ||
		die "final: $DELAYED delayed requeues for $GPS grace periods (updater CPU $CPU_PCT%)"
}

# Workload A of the bench, short: back-to-back expedited grace periods
# against a reader in 50 us sections.  282d allows one no-delay pass per
# phase, so nearly every grace period sleeps a jiffy (the KVM boot
# regression); v5.18 never sleeps.  The srcu stats line counts requeues.
srcu_short_readers() { # policy: sets GPS and DELAYED (requeues)
	run --test scale --flavor srcu --gp-exp --nreaders 1 --readdelay 50000 --holdoff 0 \
		--duration 0 --min-samples 100 srcu.policy="$1" srcu.hz=250
	expect_status 0
	expect_out '^srcu-scale:--- Start of test: .* readdelay=50000 '
	expect_out '^srcu: policy '"$1"' hz 250 .* requeues nodelay [0-9]+ delayed [0-9]+ cbdelayed [0-9]+ '
	GPS=$(sed -n 's/^srcu: .* gps \([0-9]*\) .*/\1/p' "$OUT")
	DELAYED=$(sed -n 's/^srcu: .* delayed \([0-9]*\) .*/\1/p' "$OUT")
}

t_srcu_short_readers_delay_282d_grace_periods() {
	srcu_short_readers 282d
	((GPS >= 100 && DELAYED * 2 >= GPS)) || die "282d: $DELAYED delayed requeues for $GPS GPs"
	srcu_short_readers v5.18
	((GPS >= 100 && DELAYED == 0)) || die "v5.18: $DELAYED delayed requeues for $GPS GPs"
}

# Issue 13 item 15: the flavor's stats line in every stats block, where
# the kernel prints it (after Free-Block Circulation), not only on a stall.
t_srcu_stats_line_in_every_stats_block() {
	run --flavor srcu --duration 3 --stat-interval 500ms
	expect_status 0
	local blocks lines
	blocks=$(grep -c '^srcu-torture: Free-Block Circulation:' "$OUT")
	lines=$(grep -cE '^srcu-torture: srcu: policy .* per-CPU\(idx=[01]\): 0\(' "$OUT")
	((blocks >= 3)) || die "only $blocks stats blocks"
	((lines == blocks)) || die "$lines srcu lines in $blocks stats blocks"
	awk '/Free-Block Circulation:/ { getline; if ($0 !~ /^srcu-torture: srcu: policy /) bad = 1 } END { exit bad }' "$OUT" ||
		die "a stats block whose line after Free-Block Circulation is not srcu's"
}
