# Integration tests: full polled-GP cookies (--gp-cond-full,
# --gp-poll-full: the kernel's get_state_synchronize_*_full() family, ABI
# version 3 hooks of prcu and srcu), the writer's cookie check, and the
# kernel's wait intervals --gp-cond-wi / --gp-poll-wi.

t_full_cookies_age_elements_on_prcu_and_srcu() {
	local f
	for f in prcu srcu; do
		run --flavor $f --gp-cond-full --gp-poll-full --duration 2 --stat-interval 0
		expect_status 0
		expect_out "^$f-torture:--- End of test: SUCCESS"
		expect_out "^$f-torture: Writer GPs: sync: 0 exp: 0 normal: 0 cond: 0 poll: 0$"
		expect_out "^$f-torture: Writer GPs, full cookies: cond-full: [1-9][0-9]* poll-full: [1-9][0-9]*$"
		expect_out "^$f-torture: rcu_torture_write_types: Testing conditional full-state GPs\.$"
		expect_out "^$f-torture: rcu_torture_write_types: Testing polling full-state GPs\.$"
		expect_out "^$f-torture: rcu_torture_write_types: Testing 2 update types\.$"
		expect_out ' gp_cond_full=1 gp_poll_full=1( |$)'
	done
	run --flavor prcu --list-flavors
	expect_out '^ +primitives: .*,poll-full,cond-full,gp-stall$'
}

# Negative control: full cookies that poll done one grace period early
# (prcu.poll_full_early=1, an off-by-one) fail the cookie check at once.
# The grace periods the writer waits for with such cookies end early too,
# so the readers' and the wait witness's checks race the cookie check to
# be first (1 run in 10 in issue 29): any may be, the cookie check must
# fail as well.
t_full_cookie_off_by_one_fails_the_cookie_check() {
	run_caught 3 --scenario BUSTED-FULL-COOKIE --duration 3 --seed 1 --stat-interval 0
	expect_status 1
	expect_first_check "$SHORT_GP_CHECKS"
	expect_check_failed 'cookie check' 'a full cookie \([0-9]+ [0-9]+ [0-9]+\) taken inside a read-side section polled as done before the section ended'
	# The same flavor with correct cookies passes.
	run --flavor prcu --gp-cond-full --gp-poll-full --duration 2 --stat-interval 0
	expect_status 0
}

t_full_cookie_kinds_need_the_hooks() {
	bad_input "--gp-poll-full: flavor memb has no full polled grace periods \(start_gp_poll_full, poll_gp_state_full\)" \
		--flavor memb --gp-poll-full
	bad_input "--gp-cond-full: flavor qsbr has no full grace-period cookies" \
		rcutorture.torture_type=qsbr rcutorture.gp_cond_full=1
	# A version-1 plugin's table ends before the full hooks: never read.
	run --flavor "$PLUGINS/librcutorture-example-v1.so" --duration 1 --stat-interval 0
	expect_status 0
	expect_no_out 'full-state'
}

# The wait intervals, in the kernel's unit (us) or as durations: a long
# poll interval slows the polling writer down by an order of magnitude.
t_gp_wait_intervals_pace_cond_and_poll() {
	local fast slow
	run --flavor prcu --gp-poll rcutorture.gp_poll_wi=1 --gp-cond-wi 2ms --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^prcu-torture: rcu_torture_write_types: gp_cond_wi 2000 gp_poll_wi 1$'
	fast=$(sed -n 's/.*Writer GPs: .* poll: \([0-9]*\)$/\1/p' "$OUT")
	run --flavor prcu --gp-poll --gp-poll-wi 300ms --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^prcu-torture: rcu_torture_write_types: gp_cond_wi 1000 gp_poll_wi 300000$'
	slow=$(sed -n 's/.*Writer GPs: .* poll: \([0-9]*\)$/\1/p' "$OUT")
	((slow * 4 < fast)) || die "poll updates: $slow with --gp-poll-wi 300ms, $fast with 1us"
	bad_input "--gp-poll-wi: '0' is out of range; expected 1us to 1s" --gp-poll-wi 0
}
