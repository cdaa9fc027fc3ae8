# Golden-file tests: for the option sets in ci/golden/cases, the binary
# prints the Start/End parameter lines, the JSON "config" object, --help
# and the errors byte for byte as the binary before the option table did
# (ci/golden/*.out; ci/golden/regen BIN rewrites them).

GOLDEN_DIR=ci/golden

# What a case of KIND prints for ARGS, as compared with its .out file.
golden_output() { # kind args...
	local kind=$1 json=$TEST_TMP/golden.json
	shift
	case $kind in
	lines) "$BIN" "$@" 2>&1 | grep -a -- ':--- ' ;;
	json)
		rm -f "$json"
		"$BIN" "$@" --json "$json" >/dev/null 2>&1
		# The options only: the counters differ from run to run.
		awk '/^  "config": \{/, /^  \},?$/' "$json"
		;;
	text) "$BIN" "$@" 2>&1 ;;
	error)
		"$BIN" "$@" 2>&1 >/dev/null
		echo "exit status $?"
		;;
	*) echo "golden: unknown kind $kind" ;;
	esac
}

# Run the cases of one KIND; fail on the first that differs from its file.
golden_check() { # kind
	local name kind rest args n=0
	while read -r name kind rest; do
		[[ $name && $name != \#* && $kind == "$1" ]] || continue
		read -ra args <<<"$rest"
		golden_output "$kind" "${args[@]}" >"$TEST_TMP/$name.out"
		[[ -s $GOLDEN_DIR/$name.out ]] || die "$name: no $GOLDEN_DIR/$name.out"
		diff -u "$GOLDEN_DIR/$name.out" "$TEST_TMP/$name.out" >"$TEST_TMP/diff" ||
			die "$name ($BIN ${args[*]}) differs from $GOLDEN_DIR/$name.out: $(cat "$TEST_TMP/diff")"
		n=$((n + 1))
	done <"$GOLDEN_DIR/cases"
	((n > 0)) || die "no golden cases of kind $1"
}

t_golden_param_lines() {
	golden_check lines
}

t_golden_json_config() {
	golden_check json
}

t_golden_help_text() {
	golden_check text
}

t_golden_errors() {
	golden_check error
}
