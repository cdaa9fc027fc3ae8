# Integration tests: the PRCU flavor, its RFC behaviours, and the 2018
# barrier bug reproduced.

t_prcu_succeeds_under_onoff_barrier_and_flood() {
	expect_survives_onoff_barrier_and_flood prcu
	expect_out 'rtbe: 0 '
	grep -qE 'onoff: ([0-9]+)/\1:([0-9]+)/\2 ' "$OUT" || die "onoff failures"
}

t_prcu_every_gp_primitive() {
	expect_each_gp_primitive_succeeds prcu
}

t_prcu_stats_line_in_stall_and_list() {
	run --flavor prcu --list-flavors
	expect_out '^prcu +PRCU'
	expect_out 'prcu.migrate_cbs=1: '
	expect_out 'prcu.gp_engine=1: '
	expect_out 'prcu.cb_tag=global: '
	expect_out 'prcu.idle_tick_ms=1: '
	expect_out 'prcu.rfc2018=0: '
}

# The reproduction: the RFC's behaviour strands callbacks on offline CPUs
# and its barrier skips them; the run must end FAILURE with rtbe, fast.
t_prcu_rfc2018_reproduces_rtbe() {
	local seed fails=0 t0 took
	for seed in 1 2 3; do
		t0=$(now_ms)
		run --flavor prcu prcu.rfc2018=1 --cpus 8 --onoff-interval 20ms --n-barrier-cbs 4 \
			--fwd-progress 1 --duration 60 --stop-on-failure --seed $seed --stat-interval 0
		took=$(($(now_ms) - t0))
		if [[ $STATUS == 1 ]] && grep -qE 'rtbe: [1-9]' "$OUT"; then
			expect_out '!!! first failure at [0-9.]+ s: rtbe: barrier returned after [0-3] of 4 barrier callbacks had run'
			expect_out 'End of test: FAILURE'
		else
			fails=$((fails + 1))
			echo "seed $seed: status $STATUS after ${took} ms"
		fi
	done
	((fails == 0)) || die "$fails of 3 seeds did not end FAILURE with rtbe"
}

t_prcu_each_rfc_parameter_alone_is_accepted() {
	local p
	for p in prcu.migrate_cbs=0 prcu.gp_engine=0 prcu.cb_tag=local prcu.idle_tick_ms=10; do
		run --flavor prcu $p --dry-run
		expect_status 0
		expect_out " $p"
	done
	run --flavor prcu prcu.cb_tag=sideways
	expect_status 2
	expect_err "prcu.cb_tag: bad value 'sideways'; expected one of global, local"
	run --flavor prcu prcu.idle_tick_ms=0
	expect_status 2
	expect_err "prcu.idle_tick_ms: bad value '0'; expected an integer from 1 to 1000"
}

TEST_LIMIT[t_prcu_without_migration_strands_callbacks]=150
t_prcu_without_migration_strands_callbacks() {
	# No migration, but a GP engine: barriers skip offline CPUs.
	run_caught 3 --flavor prcu prcu.migrate_cbs=0 --seed 1 --cpus 8 --onoff-interval 20ms --n-barrier-cbs 4 \
		--duration 30 --stop-on-failure --stat-interval 0
	expect_status 1
	expect_out 'rtbe: [1-9]'
}

t_prcu_without_engine_and_no_updaters_is_a_stall() {
	# The RFC's second defect: no synchronize callers, no grace periods,
	# so the barrier never returns: a stall, not a hang.
	run --flavor prcu prcu.gp_engine=0 --gp-normal --nfakewriters 0 --n-barrier-cbs 2 \
		--fwd-progress 0 --stall-timeout 1s --duration 10 --stat-interval 0
	expect_status 4
	expect_out 'STALL at [0-9.]+ s: '
	expect_out 'flavor state: prcu: gp_started '
}
