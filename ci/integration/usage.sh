# Integration tests: bad input exits 2 with one line, before any thread.

t_bad_negative_count() {
	bad_input "--nreaders: '-4097' is not valid; expected an integer from 1 to 4096, or the kernel's relative -4096 to -1 \(--test scale: 0 to 4096\)$" --nreaders -4097
	bad_input "--nfakewriters" --nfakewriters -4097
	bad_input "--nwriters: '0' is not valid; expected an integer from 1 to 4096, or the kernel's relative -4096 to -1 \(the PUs allowed \+ 1 \+ N, at least 1\)$" --test scale --nwriters 0
}

# Negative counts for --test scale and ref, as rcuscale and refscale read
# them: the PUs + 1 + N (-1: one per PU); refscale's any negative: three
# quarters of the PUs.
t_scale_and_ref_relative_counts() {
	local pus
	pus=$(nproc)
	run --test scale rcuscale.nwriters=-1 rcuscale.nreaders=-1 --dry-run
	expect_status 0
	expect_out " nreaders=$pus nwriters=$pus "
	run --test scale --nwriters -$((pus + 5)) --nreaders -2 --dry-run
	expect_status 0
	expect_out " nreaders=$((pus > 1 ? pus - 1 : 1)) nwriters=1 "
	run --test ref refscale.nreaders=-1 --dry-run
	expect_status 0
	expect_out " nreaders=$((pus * 3 / 4 > 0 ? pus * 3 / 4 : 1)) "
}

# Every message about --nreaders, and --help, gives one range per test:
# 1 to 4096 (torture also -4096 to -1, relative to the CPUs), 0 to 4096
# for --test scale (one said 0 to 4096 for all).
t_nreaders_range_is_the_same_in_every_message() {
	local args range
	for args in "--nreaders 0" "--nreaders -4097" "--nreaders 5000" "rcutorture.nreaders=x" \
		"--test ref --nreaders 0" "--test ref --nreaders 4097"; do
		run $args --dry-run
		expect_status 2
		range=$(grep -o 'from [0-9]* to [0-9]*' "$ERR" | head -n 1)
		[[ $range == "from 1 to 4096" ]] || die "'$args': range '$range': $(cat "$ERR")"
	done
	run --test scale --nreaders 4097
	expect_status 2
	expect_err "expected an integer from 1 to 4096, or the kernel's relative -4096 to -1 \(--test scale: 0 to 4096\)$"
	"$BIN" --help >"$OUT"
	tr -s ' \n' ' ' <"$OUT" | grep -q -- '--nreaders=N Reader threads, 1 to 4096, or the kernel.s relative -4096 to -1: .* --test scale: load readers, 0 to 4096, relative as rcuscale.s: .* --test ref: a negative N is refscale.s default, ' ||
		die "--help gives another range for --nreaders"
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
	run --list-flavors -v
	expect_status 0
	expect_out '^memb '
	expect_out '^busted '
	expect_out '^ +aliases: urcu-memb urcu$'
}

t_bad_test_options() {
	bad_input "--test: 'rcuscale' is not valid; expected torture, scale or ref" --test rcuscale
	bad_input "--nwriters: only for --test scale, not --test torture" --nwriters 2
	bad_input "--loops: only for --test ref, not --test scale" --test scale --loops 5
	bad_input "--nfakewriters: only for --test torture, not --test ref" --test ref --nfakewriters 1
	bad_input "--duration: only for --test torture or scale, not --test ref" --test ref --duration 5
	bad_input "--pd-busy-wait: needs --pd-test" --test scale --pd-busy-wait 1ms
	bad_input "--pd-busy-wait: must be below --stall-timeout" --test scale --pd-test --pd-busy-wait 20s
	bad_input "--pd-busy-wait: '0' is out of range" --test scale --pd-test --pd-busy-wait 0
	bad_input "--pd-sleep: needs --pd-test" --test scale --pd-sleep
	bad_input "--pd-sleep: flavor busted-crash's readers may not block; expected a flavor with blocking-readers" --test scale --flavor busted-crash --pd-test --pd-sleep
	bad_input "--readdelay: only for --test scale or ref, not --test torture" --readdelay 1000
	bad_input "--gp-async-max: needs --gp-async" --test scale --gp-async-max 10
	bad_input "--test scale times one primitive" --test scale --gp-exp --gp-async
	bad_input "--gp-cond: only for --test torture" --test scale --gp-cond
	bad_input "--min-samples: '0' is not valid; expected an integer from 1 to 1000000" --test scale --min-samples 0
	bad_input "--nreaders: '0' is not valid for --test torture" --nreaders 0
	bad_input "--flavor: 'memb,qsbr': a list of flavors is only for --test ref" --flavor memb,qsbr
	bad_input "--flavor: 'rwlock' is a baseline of --test ref, not a flavor" --test scale --flavor rwlock
	bad_input "--flavor: unknown flavor 'nosuch'; expected a comma-separated list" --test ref --flavor memb,nosuch
	bad_input "--threads: '1,,2' is not valid" --test ref --threads 1,,2
	bad_input "--threads: --nreaders also sets the reader count" --test ref --threads 1,2 --nreaders 2
	bad_input "--readdelay: '-1' is not valid" --test ref --readdelay -1
	bad_input "parameter for flavor 'qsbr', which --flavor does not list" --test ref --flavor memb qsbr.x=1
}

# --help ends by saying where bugs go: the README's "Reporting bugs"
# section, which exists (it said "the rcutorture issue tracker", no more).
t_help_points_bug_reports_at_the_readme() {
	run --help
	expect_status 0
	tail -n 4 "$OUT" | tr '\n' ' ' | grep -q 'Report bugs to .*see "Reporting bugs" in README.md' ||
		die "--help does not point at the README: $(tail -n 3 "$OUT")"
	grep -q '^## Reporting bugs$' README.md || die "README.md has no Reporting bugs section"
	grep -q '^\.SH "REPORTING BUGS"$' man/rcutorture.1 || die "the man page has no REPORTING BUGS section"
}

# The README opens with its title, one sentence, then the two commands.
t_readme_opens_with_title_sentence_and_commands() {
	awk '
		NR == 1 && $0 != "# rcutorture" { print "line 1 is not the title: " $0; exit 1 }
		NR == 1 { state = "sentence"; next }
		state == "sentence" && $0 == "" && text == "" { next }
		state == "sentence" && $0 != "" { text = text " " $0; next }
		state == "sentence" {
			n = gsub(/[.!?]( |$)/, "&", text)
			if (n != 1) { print "the opening paragraph has " n " sentences:" text; exit 1 }
			state = "fence"; next
		}
		state == "fence" && $0 != "```" { print "no code block after the sentence: " $0; exit 1 }
		state == "fence" { state = "run"; next }
		state == "run" && $0 !~ /^make run / { print "first command is not make run: " $0; exit 1 }
		state == "run" { state = "check"; next }
		state == "check" && $0 !~ /^make check / { print "second command is not make check: " $0; exit 1 }
		state == "check" { ok = NR; exit 0 }
		END { if (!ok || ok > 40) { print "the commands are not in the first 40 lines"; exit 1 } }
	' README.md >"$TEST_TMP/why" || die "README.md: $(cat "$TEST_TMP/why")"
}
