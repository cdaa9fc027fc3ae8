# Integration tests: the SRCU flavor, its delay policies and tunables.

t_srcu_succeeds_under_onoff_barrier_and_flood() {
	run --flavor srcu --cpus 8 --onoff-interval 20ms --n-barrier-cbs 4 --fwd-progress 1 \
		--fwd-progress-holdoff 1s --duration 4 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture:--- End of test: SUCCESS'
	expect_out 'barrier: ([0-9]+)/\1:0 '
	expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
	expect_out '^srcu-torture: fwd_prog_cr 0: '
	(($(pipe_late_sum) == 0)) || die "pipe stages >= 2"
}

t_srcu_every_policy_and_gp_primitive() {
	local p k
	for p in v5.18 282d 640a final; do
		run --flavor srcu srcu.policy=$p srcu.hz=250 --duration 1 --stat-interval 0
		expect_status 0
		expect_out " srcu.policy=$p srcu.hz=250"
		expect_out 'End of test: SUCCESS'
	done
	for k in sync exp normal cond poll; do
		run --flavor srcu --gp-$k --duration 1 --stat-interval 0
		expect_status 0
		expect_out 'End of test: SUCCESS'
	done
}

t_srcu_tunables() {
	run --flavor srcu srcu.max_nodelay_phase=1 srcu.max_nodelay=10 srcu.retry_check_delay=1 --duration 1 --stat-interval 0
	expect_status 0
	run --list-flavors
	expect_out '^srcu +Tree-SRCU'
	expect_out 'srcu.policy=final: '
	expect_out 'srcu.max_nodelay_phase=-1: '
	run --flavor srcu srcu.hz=50
	expect_status 2
	expect_err "srcu.hz: bad value '50'; expected an integer from 100 to 1000"
	run --flavor srcu srcu.policy=v6
	expect_status 2
	expect_err "srcu.policy: bad value 'v6'; expected one of v5.18, 282d, 640a, final"
}

