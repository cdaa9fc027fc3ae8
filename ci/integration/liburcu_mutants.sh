# Integration tests: mutants of liburcu's real source (issue 24 item 4,
# ci/liburcu-mutants).  The source comes from Debian's source package at
# test time (apt-get source; ci/deps adds the deb-src entry as root) and
# is built once per run of ci/run-tests, into its temporary folder, never
# into the repository.  Without the source the tests say SKIP and pass:
# a machine without a deb-src entry cannot run them.  The full score is
# make bench's (ci/bench/mutants --liburcu).

# The entries these tests run (a subset: the build of all takes longer).
LM_NEEDED="memb-base qsbr-base memb-unlock-nowake memb-skip-reader memb-barrier-short memb-master-nofence qsbr-online-nofence memb-early-cb mb-unlock-nofence"

# Build them once into the shared cache; LM: the folder, or return 1
# after printing SKIP when the source cannot be had.
liburcu_mutants() {
	local cache status lock
	cache=$(dirname "$(dirname "$TEST_TMP")")/liburcu-mutants
	# The other lane (ci/run-tests --jobs 2) may be filling it.
	exec {lock}>"$TREE_LOCK"
	flock "$lock"
	if [[ ! -e $cache/.built ]]; then
		ci/liburcu-mutants/build --only "$LM_NEEDED" "$cache" >"$TEST_TMP/build.out" 2>&1
		status=$?
		if ((status == 77)); then
			grep -m 1 SKIP "$TEST_TMP/build.out"
			exec {lock}>&-
			return 1
		fi
		((status == 0)) || die "ci/liburcu-mutants/build: exit $status: $(tail -n 5 "$TEST_TMP/build.out")"
		touch "$cache/.built"
	fi
	exec {lock}>&-
	LM=$cache
}

# One entry's run: its library first in the search path, our adapter
# built against its headers (plain, or with -sb the instrumented one).
run_variant() { # entry plugin-flavor options...
	local entry=$1 plugin=$2
	shift 2
	LD_LIBRARY_PATH=$LM/$entry/lib run --flavor "$LM/$entry/plugins/librcutorture-$plugin.so" "$@"
}

# The same, retried with the next seeds while it passes (run_caught).
run_variant_caught() { # tries entry plugin-flavor options...
	local tries=$1 entry=$2 plugin=$3
	shift 3
	LD_LIBRARY_PATH=$LM/$entry/lib run_caught "$tries" \
		--flavor "$LM/$entry/plugins/librcutorture-$plugin.so" "$@"
}

# The false-positive control: liburcu rebuilt from its unchanged source
# passes --hunt, plain and instrumented; and the run really uses the
# rebuilt library, not the installed one.
t_liburcu_source_bases_pass() {
	liburcu_mutants || return 0
	for f in memb qsbr; do
		[[ $(LD_LIBRARY_PATH=$LM/$f-base/lib ldd "$BIN" | grep -F "liburcu-$f.so.8") == *"$LM/$f-base/lib/"* ]] ||
			die "$f-base: the run would not load the rebuilt liburcu-$f.so.8"
		for p in $f $f-sb; do
			run_variant "$f-base" $p --hunt --duration 3 --seed 1 --stat-interval 0
			expect_status 0
			expect_out "^$p-torture:--- End of test: SUCCESS: "
			expect_out "^$p-torture: flavor $p from plugin $LM/$f-base/plugins/"
		done
	done
}

# Mutants of the real code, each caught by the build kind the bug needs:
# a wrong wait, barrier or callback queue by the plain build, a missing
# fence (invisible on x86 without the emulation) by the instrumented one.
# Without membarrier (memb-master-nofence) a reader's unlock can also
# read the futex before its counter store is visible and wake nobody: a
# lost wakeup is that mutant's bug too (caught so at 0.45 s in a
# preflight, under --hunt's quiet spells).
# Each is caught in seconds idle; up to three seeds of 60 s each, for a
# loaded machine.
TEST_LIMIT[t_liburcu_source_mutants_caught]=600
t_liburcu_source_mutants_caught() {
	liburcu_mutants || return 0
	local entry plugin checks
	while read -r entry plugin checks; do
		run_variant_caught 3 "$entry" "$plugin" --hunt --stop-on-failure --duration 60 --seed 1 --stat-interval 0
		[[ $STATUS == 1 || $STATUS == 4 ]] || die "$entry ($plugin): exit $STATUS, expected FAILURE (1) or STALL (4)"
		expect_out "^$plugin-torture: First failure: at [0-9.]+ s, caught by: ($checks)"
	done <<EOF2
memb-skip-reader memb $SHORT_GP_CHECKS
memb-barrier-short memb rtbe|stall
memb-early-cb memb-sb early callback|$SHORT_GP_CHECKS
memb-master-nofence memb-sb $SHORT_GP_CHECKS|lost wakeup
qsbr-online-nofence qsbr-sb $SHORT_GP_CHECKS
EOF2
	# A missing fence before read_unlock's store lets the section's loads
	# pass it: Arm, never x86; the Arm model makes those loads late.
	run_variant_caught 3 mb-unlock-nofence mb-sb --hunt --store-buffer-model arm --stop-on-failure \
		--duration 60 --seed 1 --stat-interval 0
	expect_status 1
	expect_out "^mb-sb-torture: !!! first failure at [0-9.]+ s: too-short grace period: reader [0-9]+ saw element 0x[0-9a-f]+ at pipe stage ([2-9]|10) in a load that passed its read_unlock\(\)'s store"
}

# A reader that clears the grace period's futex but wakes nobody: the
# lost-wakeup check names the sleeper long before the stall timeout.
# The held section makes the grace period sleep on the futex in every
# schedule (liburcu sleeps after 100 active attempts); the verdict judges
# sleeps and section boundaries, not time, so load only delays it.  The
# base, under the same options, passes.
t_liburcu_source_lost_wakeup_caught_before_the_stall_timeout() {
	liburcu_mutants || return 0
	local opts=(--stall-cpu 500ms --stall-cpu-holdoff 500ms --stall-cpu-block --stall-timeout 60s --seed 1 --stat-interval 0)
	run_variant memb-unlock-nowake memb --duration 60 "${opts[@]}"
	expect_status 1
	expect_out '^memb-torture: First failure: at [0-9.]+ s, caught by: lost wakeup$'
	expect_out "^memb-torture: LOST WAKEUP at [0-9.]+ s: .* asleep in FUTEX_WAIT on the flavor's grace-period wakeup word 0x[0-9a-f]+ for [0-9.]+ s without a wakeup"
	expect_out '^memb-torture: backtrace of '
	expect_no_out 'STALL at'
	run_variant memb-base memb --duration 3 "${opts[@]}"
	expect_status 0
	expect_out '^memb-torture:--- End of test: SUCCESS: '
}

# An edit that no longer fits the source (a newer liburcu) fails the build
# and names the edit: never a silently unchanged "mutant".
t_liburcu_source_edit_that_does_not_fit_fails() {
	liburcu_mutants || return 0
	local src=$TEST_TMP/src
	mkdir -p "$src" && cp -a "$LM/memb-base/tree/src" "$LM/memb-base/tree/include" "$src/" || die "copy"
	sed -i 's/urcu_wake_all_waiters(&waiters);/urcu_wake_all_waiters(\&w);/' "$src/src/urcu.c"
	ci/liburcu-mutants/build --only memb-lost-wakeup --source "$src" "$TEST_TMP/variants" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 1
	grep -q "an edit no longer fits src/urcu.c: after 'void synchronize_rcu(void)', 'urcu_wake_all_waiters(&waiters);' not found" "$ERR" ||
		die "no message naming the edit: $(head -n 3 "$ERR")"
	[[ ! -e $TEST_TMP/variants/memb-lost-wakeup/lib/liburcu-memb.so.8 ]] || die "built anyway"
}

# Without the source (no deb-src entry): one SKIP line, exit 77.
t_liburcu_source_missing_says_skip() {
	mkdir -p "$TEST_TMP/bin"
	printf '#!/bin/sh\necho "E: You must put some '"'"'deb-src'"'"' URIs in your sources.list" >&2\nexit 100\n' >"$TEST_TMP/bin/apt-get"
	chmod +x "$TEST_TMP/bin/apt-get"
	PATH=$TEST_TMP/bin:$PATH ci/liburcu-mutants/build --only memb-base "$TEST_TMP/variants" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 77
	expect_out "^liburcu-mutants: SKIP: cannot get liburcu's source \(apt-get source liburcu=[^ ]+: E: You must put some 'deb-src' URIs in your sources.list\); ci/deps adds the deb-src entry it needs when run as root$"
}
