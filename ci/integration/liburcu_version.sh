# Integration tests: the liburcu flavors built against another liburcu
# (issue 46 item 1; make liburcu-version LIBURCU=VERSION, the Makefile's
# LIBURCU_DIR).  Debian 13's liburcu-dev 0.15.2-2 comes from Debian's
# archive at test time (ci/liburcu-version/fetch, into build/, never
# tracked) and is built once per run of ci/run-tests: the first lane to
# get here builds, the other finds it built.  Without the package the
# tests say SKIP and pass: a machine without the archive cannot run them.

LV_VERSION=0.15.2-2
LV_BIN=build-liburcu-$LV_VERSION/rcutorture
# sid's, with upstream's fix of the lost wakeups (issue 46).
LV_FIXED=0.15.7-1

# The tests that build and run their own binaries (build-liburcu-*), or
# read code: once, not again under ASan (the same runs).
TEST_NORMAL_ONLY[t_liburcu_version_build_runs_that_version]="its own binary"
TEST_NORMAL_ONLY[t_liburcu_version_fixed_release_passes_the_arm_model]="its own binary"
TEST_NORMAL_ONLY[t_liburcu_version_debian13_lost_wakeup_caught]="its own binary"
TEST_NORMAL_ONLY[t_liburcu_version_arm64_code_lets_the_load_pass]="reads liburcu's code"
TEST_NORMAL_ONLY[t_liburcu_version_lost_wakeup_bench_table]="its own binary"

# Build it, or VERSION (make in the source tree: under TREE_LOCK); return
# 1 after printing SKIP when the package cannot be had.
liburcu_version_built() { # [VERSION]
	local status version=${1:-$LV_VERSION}
	tree_locked env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j2 --no-print-directory liburcu-version LIBURCU=$version >"$TEST_TMP/build.out" 2>&1
	status=$?
	if grep -q '^liburcu-version: SKIP: ' "$TEST_TMP/build.out"; then
		grep -m 1 SKIP "$TEST_TMP/build.out"
		return 1
	fi
	((status == 0)) || die "make liburcu-version: exit $status: $(tail -n 5 "$TEST_TMP/build.out")"
	[[ -x build-liburcu-$version/rcutorture ]] || die "make liburcu-version did not make build-liburcu-$version/rcutorture"
}

# The build uses 0.15.2's headers and static libraries, none of the
# installed 0.13.2 (no urcu-signal in 0.15), says so in --list-flavors
# and on the run's flavor line, and its flavors pass, the instrumented
# (-sb) ones too.  It builds a whole tree first: 63 s in an idle
# preflight, 118 s beside the other lane under --busy 2, so the default
# 120 s limit is a hang guard it could hit.
TEST_LIMIT[t_liburcu_version_build_runs_that_version]=600
t_liburcu_version_build_runs_that_version() {
	liburcu_version_built || return 0
	if ldd "$LV_BIN" | grep -q liburcu; then
		die "$LV_BIN loads a shared liburcu: $(ldd "$LV_BIN" | grep liburcu | head -n 1)"
	fi
	BIN=$LV_BIN run --list-flavors
	expect_status 0
	for f in memb mb qsbr bp; do
		expect_out "^$f +liburcu urcu-$f: .* \[liburcu $LV_VERSION \(static\)\]$"
	done
	expect_out "^signal +\(absent: liburcu $LV_VERSION has no urcu-signal\)$"
	# The instrumented ones too, on the library the binary has linked in.
	for f in memb mb qsbr bp; do
		expect_out "^$f-sb +liburcu urcu-$f: .*; instrumented \(store-buffer SDK\) \[liburcu $LV_VERSION \(static\)\]$"
		if ldd "build-liburcu-$LV_VERSION/lib/librcutorture-$f-sb.so" | grep -q liburcu; then
			die "$f-sb loads a shared liburcu: $(ldd "build-liburcu-$LV_VERSION/lib/librcutorture-$f-sb.so" | grep liburcu | head -n 1)"
		fi
	done
	expect_no_out '^prcu .*\[liburcu'
	for f in memb qsbr; do
		BIN=$LV_BIN run --flavor $f --duration 2 --cpus 4 --onoff-interval 50ms --stat-interval 0
		expect_status 0
		expect_out "^$f-torture: flavor $f built against liburcu $LV_VERSION \(static\)$"
		expect_out "^$f-torture:--- End of test: SUCCESS: "
	done
	for f in mb qsbr; do
		BIN=$LV_BIN run --flavor $f-sb --duration 2 --cpus 4 --onoff-interval 50ms --stat-interval 0
		expect_status 0
		expect_out "^$f-sb-torture: flavor $f-sb from plugin .*/build-liburcu-$LV_VERSION/lib/librcutorture-$f-sb\.so$"
		expect_out "^$f-sb-torture: flavor $f-sb built against liburcu $LV_VERSION \(static\)$"
		expect_out "^$f-sb-torture:--- End of test: SUCCESS: "
	done
	# The library's membarrier, linked into the binary, reaches the
	# SDK's wrapper, which empties the readers' store buffers
	# (flavors/urcu/static_liburcu.c): without it memb-sb --hunt ended
	# "early grace period" at 8.2 s (seed 1, 0.15.7-1), a false positive.
	nm "$LV_BIN" | grep -q ' T rcut_urcu_syscall$' || die "$LV_BIN: liburcu's calls do not go through rcut_lib_hooks"
	BIN=$LV_BIN run --flavor memb-sb --hunt --duration 10 --seed 1 --stat-interval 0
	expect_status 0
	expect_out "^memb-sb-torture:--- End of test: SUCCESS: "
}

# The fixed 0.15.7 under Arm's store order: its cmm_smp_mb() is its own
# "lock; addl" asm on x86, which flavors/urcu/storebuf_liburcu.h makes a
# fence the SDK sees; unseen, mb-sb (whose read_lock fences with it)
# ended "early grace period" within 0.3 s (seeds 1 and 2, at load 12), a
# false positive on a correct library.  qsbr-sb, where the lost wakeups
# of 0.15.0-0.15.5 live, must pass there too.
TEST_LIMIT[t_liburcu_version_fixed_release_passes_the_arm_model]=600
t_liburcu_version_fixed_release_passes_the_arm_model() {
	liburcu_version_built $LV_FIXED || return 0
	local bin=build-liburcu-$LV_FIXED/rcutorture f
	for f in mb qsbr; do
		BIN=$bin run --flavor $f-sb --hunt --store-buffer-model arm --duration 5 --seed 1 --stat-interval 0
		expect_status 0
		expect_out "^$f-sb-torture: flavor $f-sb built against liburcu $LV_FIXED \(static\)$"
		expect_out "store_buffer_model=arm"
		expect_out "^$f-sb-torture:--- End of test: SUCCESS: "
	done
}

# Issue 46: Debian 13's liburcu loses a grace period's wakeup (its
# read-side counter store is a seq_cst store the wakeup's relaxed load
# may pass on arm64; docs/findings/liburcu-0.15-lost-wakeup.md).  Under
# the arm store model with --hunt (its quiet spells park every reader, so
# no later unlock rescues the sleeper) the lost-wakeup check names it:
# 0.1 to 27 s idle, median 2.3 s (seeds 1-10); five seeds of up to 60 s
# each for a loaded machine.
# The check judges sleeps and section boundaries, never time, and the
# fixed release passes the same command (the test above, and here its
# qsbr-sb for as long as the catch took).
TEST_LIMIT[t_liburcu_version_debian13_lost_wakeup_caught]=900
t_liburcu_version_debian13_lost_wakeup_caught() {
	liburcu_version_built || return 0
	local at
	BIN=$LV_BIN run_caught 5 --flavor qsbr-sb --hunt --store-buffer-model arm --stop-on-failure \
		--duration 60 --seed 1 --stat-interval 0
	expect_status 1
	expect_out '^qsbr-sb-torture: First failure: at [0-9.]+ s, caught by: lost wakeup$'
	expect_out "^qsbr-sb-torture: LOST WAKEUP at [0-9.]+ s: .* asleep in FUTEX_WAIT on the flavor's grace-period wakeup word"
	at=$(sed -n 's/^qsbr-sb-torture: First failure: at \([0-9]*\).*/\1/p' "$OUT")
	liburcu_version_built $LV_FIXED || return 0
	BIN=build-liburcu-$LV_FIXED/rcutorture run --flavor qsbr-sb --hunt --store-buffer-model arm \
		--duration $((at < 5 ? 5 : at + 1)) --seed 1 --stat-interval 0
	expect_status 0
	expect_out '^qsbr-sb-torture:--- End of test: SUCCESS: '
}

# The reproducer against the library alone: Debian 13's read-side code
# compiled for arm64 lets the wakeup's load pass the counter's
# store-release in all three functions upstream fixed; sid's 0.15.7 puts
# a barrier between.  It reads code: no schedule can change it.
t_liburcu_version_arm64_code_lets_the_load_pass() {
	local r=docs/findings/liburcu-0.15-lost-wakeup-arm64.sh status fn
	LOST_WAKEUP_WORK=$TEST_TMP tree_locked $r $LV_VERSION >"$OUT" 2>"$ERR"
	status=$?
	((status == 77)) && { head -n 1 "$OUT"; return 0; }
	((status == 1)) || die "$r $LV_VERSION: exit $status, expected 1"
	for fn in mb_read_unlock qsbr_quiescent_state qsbr_thread_offline; do
		expect_out "^liburcu $LV_VERSION, $fn \(arm64\): stlr [^;]*; ldr [^:]*: MAY PASS THE STORE$"
	done
	LOST_WAKEUP_WORK=$TEST_TMP tree_locked $r $LV_FIXED >"$OUT" 2>"$ERR"
	status=$?
	((status == 77)) && { head -n 1 "$OUT"; return 0; }
	((status == 0)) || die "$r $LV_FIXED: exit $status, expected 0"
	expect_out "^liburcu $LV_FIXED, qsbr_thread_offline \(arm64\): stlr [^;]*; dmb ish: ordered$"
	expect_no_out 'MAY PASS'
}

# make bench's table of it (ci/bench/liburcu-lost-wakeup), cut to one
# seed and two-second controls: the command, a row per flavor, the
# controls passed, the JSON; bad arguments exit 2 before any run.
TEST_LIMIT[t_liburcu_version_lost_wakeup_bench_table]=600
t_liburcu_version_lost_wakeup_bench_table() {
	local b=ci/bench/liburcu-lost-wakeup status
	$b --flavors memb >"$OUT" 2>"$ERR"
	[[ $? == 2 ]] && grep -q "^liburcu-lost-wakeup: --flavors: 'memb' is not an instrumented liburcu flavor" "$ERR" ||
		die "--flavors memb: $(cat "$ERR")"
	$b --seeds 0 >"$OUT" 2>"$ERR"
	[[ $? == 2 ]] || die "--seeds 0: expected exit 2"
	tree_locked $b --bin "$BIN" --out "$TEST_TMP/b" --flavors mb-sb --seeds 1 --limit 20 --control 2 >"$OUT" 2>"$ERR"
	status=$?
	((status == 77)) && { head -n 1 "$OUT"; return 0; }
	((status == 0)) || die "$b: exit $status"
	expect_out "^  build-liburcu-$LV_VERSION/rcutorture --flavor FLAVOR --hunt --store-buffer-model arm --stop-on-failure --duration 20 --seed S$"
	expect_out '^mb-sb +[01]/1 +([0-9.]+|-) .* pass +pass *$'
	expect_out '^target: caught in at least 9 of 10 seeds, median at most 10 s; the controls pass 600 s$'
	[[ $(jqr "$TEST_TMP/b/liburcu-lost-wakeup.json" '.rows[0].fixed') == pass ]] || die "JSON: $(cat "$TEST_TMP/b/liburcu-lost-wakeup.json")"
}

# The default build names the installed liburcu-dev's version the same way.
t_liburcu_version_of_the_default_build_shown() {
	local v
	v=$(dpkg-query -W -f='${Version}' liburcu-dev 2>/dev/null) || { echo "SKIP: liburcu-dev is not a Debian package here"; return 0; }
	v=${v//./\\.}
	run --list-flavors
	expect_status 0
	expect_out "^memb +liburcu urcu-memb: .* \[liburcu $v\]$"
	expect_out "^signal +liburcu urcu-signal: .* \[liburcu $v\]$"
	run --flavor qsbr --duration 1 --stat-interval 0
	expect_status 0
	expect_out "^qsbr-torture: flavor qsbr built against liburcu $v$"
	run --flavor prcu --duration 1 --stat-interval 0
	expect_no_out 'built against'
}

# Bad versions: one line, exit 2, nothing fetched.
t_liburcu_version_bad_input() {
	ci/liburcu-version/fetch 'a b' >"$OUT" 2>"$ERR"
	[[ $? == 2 ]] || die "fetch 'a b': exit $?, expected 2"
	grep -q "^liburcu-version: 'a b' is not a Debian version or suite name$" "$ERR" || die "fetch 'a b': $(cat "$ERR")"
	make --no-print-directory liburcu-version >"$OUT" 2>"$ERR"
	[[ $? == 2 ]] || die "make liburcu-version without LIBURCU: expected exit 2"
	grep -q '^liburcu-version: LIBURCU=VERSION ' "$ERR" || die "make liburcu-version: $(cat "$ERR")"
}
