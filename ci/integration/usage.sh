# Integration tests: bad input exits 2 with one line, before any thread.

t_bad_negative_count() {
	bad_input "--nreaders: '-1' is not valid; expected an integer from 1 to 4096" --nreaders -1
	bad_input "--nfakewriters" --nfakewriters -4
}

t_bad_unknown_flavor() {
	bad_input "--flavor: unknown flavor 'nosuch'; expected one of .*memb" --flavor nosuch
}

t_bad_duration() {
	bad_input "--duration: '3x' is not a duration" --duration 3x
	bad_input "--stat-interval" --stat-interval=-1
}

t_bad_flavor_parameter() {
	bad_input "memb: unknown parameter 'nosuch'" memb.nosuch=1
	bad_input "parameter for flavor 'prcu', but the flavor is 'memb'" prcu.migrate_cbs=0
}

t_bad_option_and_argument() {
	bad_input "unknown option or missing value: '--frobnicate'" --frobnicate
	bad_input "unexpected argument 'memb'" memb
	bad_input "unknown parameter rcutorture.nosuch" rcutorture.nosuch=1
	bad_input "--seed" --seed minus-one
}

t_help_version_list() {
	run --help
	expect_status 0
	for opt in --flavor --duration --seed --nreaders --nfakewriters --stat-interval --list-flavors --verbose --quiet --stop-on-failure --version; do
		grep -q -- "$opt" "$OUT" || die "--help lacks $opt"
	done
	run --version
	expect_status 0
	expect_out '^rcutorture [0-9]+\.[0-9]+\.[0-9]+ \(flavor ABI [0-9]+\)$'
	run --list-flavors
	expect_status 0
	expect_out '^memb '
	expect_out '^busted '
	expect_out '^ +aliases: urcu-memb urcu$'
}
