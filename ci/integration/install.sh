# Integration tests: make install / uninstall, and a plugin built outside
# the tree against the installed header with pkg-config.

t_install_build_a_plugin_with_pkg_config_and_torture_it() {
	local dest=$TEST_TMP/stage f cflags
	make --no-print-directory install DESTDIR="$dest" PREFIX=/usr >"$TEST_TMP/make.log" 2>&1 ||
		die "make install failed: $(tail -n 5 "$TEST_TMP/make.log")"
	for f in bin/rcutorture share/man/man1/rcutorture.1 include/rcutorture/flavor.h \
		share/pkgconfig/rcutorture.pc share/rcutorture/scenarios/MEMB01 \
		share/rcutorture/examples/example_rcu.c; do
		[[ -f $dest/usr/$f ]] || die "make install did not install $f"
	done
	grep -q '^prefix=/usr$' "$dest/usr/share/pkgconfig/rcutorture.pc" || die "rcutorture.pc: wrong prefix"
	cflags=$(PKG_CONFIG_PATH=$dest/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest pkg-config --cflags rcutorture) ||
		die "pkg-config does not know rcutorture"
	[[ $cflags == "-I$dest/usr/include"* ]] || die "pkg-config --cflags: '$cflags'"
	# Outside the source tree, with the installed header only.
	cp "$dest/usr/share/rcutorture/examples/example_rcu.c" "$TEST_TMP/mine.c"
	(cd "$TEST_TMP" && cc $cflags -O2 -fPIC -shared -pthread -o libmine.so mine.c) ||
		die "the example does not build against the installed header"
	BIN=$dest/usr/bin/rcutorture run --flavor "$TEST_TMP/libmine.so" --duration 1.5 --stat-interval 0
	expect_status 0
	expect_out '^example-torture:--- End of test: SUCCESS: '
	# The installed binary finds the installed scenarios.
	BIN=$dest/usr/bin/rcutorture run --scenario BUSTED --dry-run
	expect_status 0
	expect_out "scenario BUSTED from $dest/usr/share/rcutorture/scenarios/BUSTED, expected verdict FAILURE$"
	make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr >"$TEST_TMP/make.log" 2>&1 ||
		die "make uninstall failed: $(tail -n 5 "$TEST_TMP/make.log")"
	f=$(find "$dest" -type f | head -n 3)
	[[ -z $f ]] || die "make uninstall left $f"
}
