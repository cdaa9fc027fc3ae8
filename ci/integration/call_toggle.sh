# Integration tests: call-queue toggling (--nocbs-nthreads, --nocbs-toggle,
# the kernel's nocb toggling) through the flavor ABI version 3 hook
# switch_call_mode: no callback lost, duplicated or early across switches.

t_call_queue_toggling_keeps_every_callback() {
	local f
	for f in memb qsbr bp; do
		run --flavor $f --cpus 4 --nocbs-nthreads 2 --nocbs-toggle 20ms --onoff-interval 50ms \
			--n-barrier-cbs 2 --gp-normal --gp-sync --duration 3 --stat-interval 0
		expect_status 0
		expect_out "^$f-torture:--- End of test: SUCCESS"
		expect_out ' nocbs_nthreads=2( |$)'
		expect_out 'races: [0-9]+/[0-9]+ nocb-toggles: [1-9][0-9]*:[1-9][0-9]*$'
		expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
		expect_out 'barrier: ([1-9][0-9]*)/\1:0 '
	done
	run --scenario MEMB-TOGGLE --duration 2 --stat-interval 0
	expect_status 0
	# Without toggling, the stats line has no nocb-toggles field.
	run --flavor memb --duration 1 --stat-interval 0
	expect_no_out 'nocb-toggles'
}

# Negative control: a switch that drops the offloaded callbacks fails
# with lost callbacks; without toggling the same flavor passes.
t_call_queue_toggling_that_loses_callbacks_fails() {
	# The default barrier test finds it first (its callback is lost too):
	run_caught 3 --scenario BUSTED-TOGGLE --duration 3 --seed 1 --stat-interval 0
	expect_status 1
	expect_out '!!! first failure at [0-9.]+ s: (rtbe: barrier returned after 0 of 1 barrier callbacks|lost callbacks?: )'
	# Without it, found during the run by the lost-callback check (or,
	# failing that, by the final barrier).
	run_caught 3 --scenario BUSTED-TOGGLE --n-barrier-cbs 0 --duration 3 --seed 1 --stat-interval 0
	expect_status 1
	expect_out '!!! first failure at [0-9.]+ s: lost callbacks?: ([1-9][0-9]* callbacks were never invoked by the final barrier|.* not invoked: its call\(\) returned)'
	expect_out 'Callbacks: invoked: [0-9]+ early: 0 duplicate: 0 lost: [1-9]'
	run --flavor busted-toggle --gp-normal --duration 2 --stat-interval 0
	expect_status 0
}

t_call_queue_toggling_options() {
	bad_input "--nocbs-nthreads: flavor prcu cannot switch its callback queues at run time \(no switch_call_mode hook\)" \
		--flavor prcu --nocbs-nthreads 1
	bad_input "--nocbs-toggle: '0' is out of range; expected 1ms to 1h" --nocbs-toggle 0
	run rcutorture.nocbs_nthreads=3 rcutorture.nocbs_toggle=250 --dry-run
	expect_status 0
	expect_out ' nocbs_nthreads=3( |$)'
	run --flavor bp --list-flavors
	expect_out '^ +primitives: sync,exp=sync,call,barrier,call-modes,poll,cond,blocking-readers,call-toggle$'
}
