# Integration tests: make install / uninstall, and a plugin built outside
# the tree against the installed header with pkg-config.  GNU conventions:
# PREFIX is where the files will live, built into the binary (a new PREFIX
# rebuilds it) and the .pc file; DESTDIR only stages them.

# make in the source tree (holding its lock); its output to
# $TEST_TMP/make.log.
make_here() { # make arguments...
	tree_locked make --no-print-directory "$@" >"$TEST_TMP/make.log" 2>&1 ||
		die "make $*: $(tail -n 5 "$TEST_TMP/make.log")"
}

# The scenario directories binary $1 searches, from its error for a name
# that is nowhere (without $RCUTORTURE_SCENARIO_DIR).
scenario_dirs_of() { # binary
	env -u RCUTORTURE_SCENARIO_DIR "$1" --scenario NO-SUCH-SCENARIO --dry-run 2>&1 |
		sed -n "s/^rcutorture: --scenario: no scenario 'NO-SUCH-SCENARIO' in \(.*\) (a FILE path.*/\1/p"
}

t_install_build_a_plugin_with_pkg_config_and_torture_it() {
	local dest=$TEST_TMP/stage f cflags s
	make_here all PREFIX=/usr/local
	# PREFIX changes at install time: what depends on it is rebuilt.
	make_here install DESTDIR="$dest" PREFIX=/usr
	for f in bin/rcutorture bin/rcutorture-run-scenarios bin/rcutorture-campaign \
		share/man/man1/rcutorture-campaign.1 share/rcutorture/campaign/run-job \
		share/rcutorture/campaign/plan.sh share/man/man1/rcutorture.1 \
		include/rcutorture/flavor.h share/pkgconfig/rcutorture.pc \
		share/rcutorture/examples/example_rcu.c share/doc/rcutorture/README.md; do
		[[ -f $dest/usr/$f ]] || die "make install did not install $f"
	done
	for s in ci/scenarios/*; do
		[[ -f $dest/usr/share/rcutorture/scenarios/${s##*/} ]] || die "scenario ${s##*/} not installed"
	done
	# The installed binary looks where PREFIX says, not in DESTDIR, the
	# source tree or /usr/local.
	[[ $(scenario_dirs_of "$dest/usr/bin/rcutorture") == /usr/share/rcutorture/scenarios ]] ||
		die "installed binary searches: $(scenario_dirs_of "$dest/usr/bin/rcutorture")"
	[[ $(scenario_dirs_of ./rcutorture) == "$PWD/ci/scenarios" ]] ||
		die "the source tree's binary searches: $(scenario_dirs_of ./rcutorture)"
	f=$(grep -rlF -- "$dest" "$dest" | head -n 1)
	[[ -z $f ]] || die "DESTDIR is written in the installed ${f#"$dest"}"
	grep -q '^prefix=/usr$' "$dest/usr/share/pkgconfig/rcutorture.pc" || die "rcutorture.pc: wrong prefix"
	# The staged .pc file, read as the staged tree's (sysroot) or moved
	# with its directory (--define-prefix), gives the staged header.
	cflags=$(PKG_CONFIG_PATH=$dest/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest pkg-config --cflags rcutorture) ||
		die "pkg-config does not know rcutorture"
	[[ $cflags == "-I$dest/usr/include"* ]] || die "pkg-config --cflags (sysroot): '$cflags'"
	[[ $(PKG_CONFIG_PATH=$dest/usr/share/pkgconfig pkg-config --define-prefix --cflags rcutorture) == "-I$dest/usr/include"* ]] ||
		die "pkg-config --define-prefix --cflags: '$(PKG_CONFIG_PATH=$dest/usr/share/pkgconfig pkg-config --define-prefix --cflags rcutorture)'"
	# Outside the source tree, with the installed header only.
	cp "$dest/usr/share/rcutorture/examples/example_rcu.c" "$TEST_TMP/mine.c"
	(cd "$TEST_TMP" && cc $cflags -O2 -fPIC -shared -pthread -o libmine.so mine.c) ||
		die "the example does not build against the installed header"
	BIN=$dest/usr/bin/rcutorture run --flavor "$TEST_TMP/libmine.so" --duration 1.5 --stat-interval 0
	expect_status 0
	expect_out '^example-torture:--- End of test: SUCCESS: '
	make_here uninstall DESTDIR="$dest" PREFIX=/usr
	f=$(find "$dest" -type f | head -n 3)
	[[ -z $f ]] || die "make uninstall left $f"
}

# Installed where it runs (no DESTDIR): the binary finds its scenarios,
# rcutorture-run-scenarios runs the binary next to it, results in the
# current directory; pkg-config needs no help.
t_install_to_a_prefix_runs_scenarios() {
	local prefix=$TEST_TMP/prefix f cflags
	make_here install PREFIX="$prefix"
	BIN=$prefix/bin/rcutorture run --scenario BUSTED --dry-run
	expect_status 0
	expect_out "scenario BUSTED from $prefix/share/rcutorture/scenarios/BUSTED, expected verdict FAILURE$"
	[[ $(scenario_dirs_of "$prefix/bin/rcutorture") == "$prefix/share/rcutorture/scenarios" ]] ||
		die "installed binary searches: $(scenario_dirs_of "$prefix/bin/rcutorture")"
	read -r cflags < <(PKG_CONFIG_PATH=$prefix/share/pkgconfig pkg-config --cflags rcutorture)
	[[ $cflags == "-I$prefix/include" ]] || die "pkg-config --cflags: '$cflags'"
	# The example plugin with the store-buffer emulation, as the .pc
	# file's comment says to build it with gcc (compile, then link).
	local sbc sbl
	sbc=$(PKG_CONFIG_PATH=$prefix/share/pkgconfig pkg-config --cflags rcutorture-storebuf) &&
		sbl=$(PKG_CONFIG_PATH=$prefix/share/pkgconfig pkg-config --libs rcutorture-storebuf) ||
		die "pkg-config does not know rcutorture-storebuf"
	(cd "$TEST_TMP" && cp "$prefix/share/rcutorture/examples/example_rcu.c" sb.c &&
		gcc $sbc -Wno-tsan -O2 -fPIC -c sb.c && gcc -shared -o libsb.so sb.o $sbl) ||
		die "the example does not build with the installed store-buffer emulation"
	BIN=$prefix/bin/rcutorture run --flavor "$TEST_TMP/libsb.so" --store-buffer-delay 100us \
		--duration 1.5 --stat-interval 0
	expect_status 0
	expect_out '^example-torture:--- End of test: SUCCESS: .*store_buffer_delay=100us'
	expect_out '^example-torture: Store buffer: buffered: '
	mkdir -p "$TEST_TMP/work"
	(cd "$TEST_TMP/work" && env -u RCUTORTURE_SCENARIO_DIR "$prefix/bin/rcutorture-run-scenarios" \
		--duration 1s --jobs 2 "MEMB01 BUSTED") >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 0
	expect_out "^run-scenarios: 2 runs of $prefix/bin/rcutorture in batches of 2, results in $TEST_TMP/work/rcutorture-results/"
	expect_out '^all 2 runs ended as expected$'
	grep -q "from $prefix/share/rcutorture/scenarios/MEMB01," "$TEST_TMP"/work/rcutorture-results/*/MEMB01/console.log ||
		die "MEMB01 was not the installed scenario"
	# The installed campaign runner plans with the binary next to it.
	(cd "$TEST_TMP/work" && env -u RCUTORTURE_SCENARIO_DIR "$prefix/bin/rcutorture-campaign" \
		--dryrun --seeds 2 --duration 1s "MEMB01") >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 0
	expect_out "^rcutorture-campaign: plan of 2 runs of $prefix/bin/rcutorture on this machine"
	expect_out "^\+1s +MEMB01.2 .* timeout -k 10 [0-9]+ $prefix/bin/rcutorture --scenario MEMB01 "
	make_here uninstall PREFIX="$prefix"
	f=$(find "$prefix" -type f | head -n 3)
	[[ -z $f ]] || die "make uninstall left $f"
}
