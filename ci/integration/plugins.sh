# Integration tests: flavor plugins (ci/plugins/, built by make plugins)
# and the loader's errors.

need_plugins() {
	[[ -f $PLUGINS/librcutorture-example.so && -f $PLUGINS/bad/libwrong_abi.so ]] ||
		die "no plugins in $PLUGINS: run make plugins"
}

# A plugin error: a bad input naming --flavor.
bad_plugin() { # regex-of-message args...
	bad_input "--flavor: .*$1" "${@:2}"
}

t_plugin_example_succeeds() {
	need_plugins
	run --flavor "$PLUGINS/librcutorture-example.so" --duration 3 --stat-interval 1 --n-barrier-cbs 2 \
		--json "$TEST_TMP/e.json" -v
	expect_status 0
	expect_out "^example-torture: flavor example from plugin $PLUGINS/librcutorture-example.so$"
	expect_out '^example-torture:--- End of test: SUCCESS: '
	(($(pipe_slot 1) > 0)) || die "pipe stage 1 count is zero"
	(($(pipe_late_sum) == 0)) || die "pipe stages >= 2 are non-zero"
	expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
	expect_out 'barrier: [1-9][0-9]*/[1-9][0-9]*:0 '
	# Every primitive the plugin offers was used.
	expect_out 'Writer GPs: sync: [1-9][0-9]* exp: 0 normal: [1-9][0-9]* cond: [1-9][0-9]* poll: [1-9]'
	expect_out 'primitives: sync,call,barrier,poll,cond,blocking-readers'
	[[ $(jqr "$TEST_TMP/e.json" .flavor.plugin) == "$PLUGINS/librcutorture-example.so" ]] || die "JSON lacks the plugin"
}

t_plugin_abi_v1_still_loads() {
	need_plugins
	local so=$PLUGINS/librcutorture-example-v1.so
	[[ -f $so ]] || die "no $so: run make plugins"
	# Built as a version-1 table, calling nothing version 2 added.
	nm -D "$so" | grep -q ' U rcut_current_cpu$' || die "nm cannot read $so"
	! nm -D "$so" | grep -q 'rcut_race' || die "the v1 plugin references race points"
	run --flavor "$so" --duration 2 --stat-interval 0 --n-barrier-cbs 2
	expect_status 0
	expect_out "^example-v1-torture: flavor example-v1 from plugin $so$"
	expect_out '^example-v1-torture:--- End of test: SUCCESS: '
	(($(pipe_late_sum) == 0)) || die "pipe stages >= 2 are non-zero"
	expect_out 'Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0'
	# Version 0 is older than any rcutorture ABI.
	sed 's/^#define RCUT_FLAVOR_ABI_VERSION 1$/#define RCUT_FLAVOR_ABI_VERSION 0/' \
		ci/plugins/example_v1.c >"$TEST_TMP/v0.c"
	grep -q 'ABI_VERSION 0$' "$TEST_TMP/v0.c" || die "cannot make the v0 source"
	cc -Iinclude -Ici/plugins -fPIC -shared -pthread -o "$TEST_TMP/v0.so" "$TEST_TMP/v0.c" ||
		die "cannot build the v0 plugin"
	bad_plugin "plugin '$TEST_TMP/v0.so': flavor ABI version 0, this rcutorture takes 1 to 4$" \
		--flavor "$TEST_TMP/v0.so"
}

t_plugin_run_stops_on_sigint_with_its_report() {
	need_plugins
	run_interrupted --flavor "$PLUGINS/librcutorture-example.so" --duration 60 \
		--stat-interval 0 --json "$TEST_TMP/i.json"
	expect_status 0
	expect_out '^example-torture: SIGINT received, stopping$'
	expect_out '^example-torture:--- End of test: SUCCESS: '
	[[ $(jqr "$TEST_TMP/i.json" .verdict) == SUCCESS ]] || die "no JSON after SIGINT"
}

# Caught at 1.5 s under ASan beside the suite (load 11): up to three
# seeds of 20 s.
TEST_LIMIT[t_plugin_broken_fails]=180
t_plugin_broken_fails() {
	need_plugins
	run_caught 3 --flavor "$PLUGINS/librcutorture-broken.so" --duration 20 --seed 1 --stop-on-failure --stat-interval 0
	expect_status 1
	expect_out "^broken-torture: !!! first failure at [0-9.]+ s: ($SHORT_GP_CHECKS): "
	expect_out '^broken-torture:--- End of test: FAILURE: '
}

t_plugin_found_by_name_in_plugin_dir() {
	need_plugins
	# Colon-separated and repeated directories; the first that has it.
	run --plugin-dir "$TEST_TMP:$PLUGINS/bad" --plugin-dir "$PLUGINS" --flavor example --dry-run
	expect_status 0
	expect_out "^example-torture: flavor example from plugin $PLUGINS/librcutorture-example.so$"
	cp "$PLUGINS/librcutorture-broken.so" "$TEST_TMP/broken.so"
	run --plugin-dir "$TEST_TMP:$PLUGINS" --flavor broken --dry-run
	expect_status 0
	expect_out "^broken-torture: flavor broken from plugin $TEST_TMP/broken.so$"
	# A file name ending in .so is looked for in the plugin dirs too.
	run --plugin-dir "$PLUGINS" --flavor librcutorture-example.so --dry-run
	expect_status 0
	# The kernel-style form and a built-in name still win.
	run rcutorture.torture_type="$PLUGINS/librcutorture-example.so" --dry-run
	expect_status 0
	expect_out '^example-torture:--- Start of test'
	run --plugin-dir "$PLUGINS" --flavor memb --dry-run
	expect_status 0
	expect_no_out 'from plugin'
}

t_plugin_parameters() {
	need_plugins
	run --flavor "$PLUGINS/librcutorture-example.so" example.poll_us=10 --duration 1 --stat-interval 0
	expect_status 0
	expect_out ' example.poll_us=10$'
	run --flavor "$PLUGINS/librcutorture-example.so" example.poll_us=0
	expect_status 2
	expect_err "^rcutorture: example.poll_us: bad value '0'; expected an integer from 1 to 100000$"
	run --flavor "$PLUGINS/librcutorture-example.so" --list-flavors
	expect_status 0
	expect_out "^Plugin $PLUGINS/librcutorture-example.so:$"
	expect_out '^ +example.poll_us=100: '
}

t_plugin_load_errors() {
	need_plugins
	bad_plugin "plugin '$TEST_TMP/none.so': No such file or directory$" --flavor "$TEST_TMP/none.so"
	bad_plugin "plugin './none.so': No such file or directory$" --flavor none.so
	echo "not an ELF file" >"$TEST_TMP/text.so"
	bad_plugin "cannot load plugin '$TEST_TMP/text.so': .*(invalid ELF header|file too short); expected a shared object" \
		--flavor "$TEST_TMP/text.so"
	bad_plugin "plugin '$TEST_TMP/' is not a regular file$" --flavor "$TEST_TMP/"
	bad_plugin "plugin '$PLUGINS/bad/libno_symbol.so' does not define the symbol rcutorture_flavor" \
		--flavor "$PLUGINS/bad/libno_symbol.so"
	bad_plugin "plugin '$PLUGINS/bad/libwrong_abi.so': flavor ABI version 99, this rcutorture takes 1 to 4$" \
		--flavor "$PLUGINS/bad/libwrong_abi.so"
	bad_plugin "plugin '$PLUGINS/bad/libmissing_hooks.so': flavor bad lacks the required synchronize$" \
		--flavor "$PLUGINS/bad/libmissing_hooks.so"
	bad_plugin "unknown flavor 'nosuch'; expected one of .*a plugin NAME in --plugin-dir$" \
		--plugin-dir "$PLUGINS" --flavor nosuch
	# Loading comes before any thread, even with a long --duration.
	bad_plugin "flavor ABI version 99" --flavor "$PLUGINS/bad/libwrong_abi.so" --duration 1h
	run --plugin-dir "$TEST_TMP/nodir" --flavor example
	expect_status 2
	expect_err "^rcutorture: --plugin-dir: '$TEST_TMP/nodir' is not a directory"
}

t_plugin_unresolved_symbol_is_a_load_error() {
	need_plugins
	# A plugin calling a function the binary does not export fails at
	# load time (RTLD_NOW), with the loader's message.
	cat >"$TEST_TMP/u.c" <<'SRC'
#include <rcutorture/flavor.h>
void rcut_not_exported(void);
static int l(void) { rcut_not_exported(); return 0; }
static void u(int i) { (void)i; }
static void s(void) { }
const struct rcut_flavor rcutorture_flavor = { .abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "u", .description = "u", .read_lock = l, .read_unlock = u, .synchronize = s };
SRC
	cc -Iinclude -fPIC -shared -o "$TEST_TMP/u.so" "$TEST_TMP/u.c" || die "cannot build the test plugin"
	bad_plugin "cannot load plugin '$TEST_TMP/u.so': .*undefined symbol: rcut_not_exported" --flavor "$TEST_TMP/u.so"
}
