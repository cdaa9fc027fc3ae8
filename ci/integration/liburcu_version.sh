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
	# Its own binary: once, not again under ASan (the same runs).
	[[ $BIN == *build-san/* ]] && return 0
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
	[[ $BIN == *build-san/* ]] && return 0
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
