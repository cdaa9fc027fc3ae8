# Integration tests: every value a Start line prints reads back as itself.
# Each parameter is fed back as --NAME=VALUE where --help lists --NAME=ARG
# (durations, counts, choices), else as rcutorture.NAME=VALUE (flags and
# keys that are kernel spellings); flavor parameters as printed; the
# flavor and the test from the line's "FLAVOR-TEST:" prefix.  The new
# Start line must be the old one.

# The first Start line of $OUT.
start_line() {
	grep -m 1 ':--- Start of test: ' "$OUT" || die "no Start line"
}

# The arguments that say what Start line $1 says, one per line.
line_as_args() { # start-line
	local prefix=${1%%:--- Start of test: *} kv key dashed
	case $prefix in
	*-ref-scale) echo --test=ref; echo "--flavor=${prefix%-ref-scale}" ;;
	*-scale) echo --test=scale; echo "--flavor=${prefix%-scale}" ;;
	*-torture) echo --test=torture; echo "--flavor=${prefix%-torture}" ;;
	*) die "cannot read the prefix '$prefix'" ;;
	esac
	for kv in ${1#*:--- Start of test: }; do
		key=${kv%%=*} dashed=${key//_/-}
		if [[ $key == *.* ]]; then
			echo "$kv"
		elif grep -qE -- "--$dashed=" "$TEST_TMP/help"; then
			echo "--$dashed=${kv#*=}"
		else
			echo "rcutorture.$kv"
		fi
	done
}

# Run with the options, then again with what its Start line printed
# (plus the extra arguments after --, which are not parameters): the two
# Start lines must be equal.
expect_start_line_round_trips() { # options... -- extra...
	local opts=() extra=() first second args
	while (($#)) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
	(($#)) && shift
	extra=("$@")
	"$BIN" --help >"$TEST_TMP/help"
	run "${opts[@]}" "${extra[@]}"
	expect_status 0
	first=$(start_line)
	mapfile -t args < <(line_as_args "$first")
	run "${args[@]}" "${extra[@]}"
	[[ $STATUS == 0 ]] || die "fed back as '${args[*]}': exit $STATUS: $(head -n 1 "$ERR")"
	second=$(start_line)
	[[ $first == "$second" ]] || die "Start line changed when fed back as '${args[*]}':
 first: $first
second: $second"
}

t_start_line_round_trips_torture() {
	# Durations below a millisecond and not whole ones (the issue's
	# --duration 0.0001 printed duration=100000ns, which did not parse).
	expect_start_line_round_trips --flavor mb --seed 0x10 --cpus 3 --nreaders 2 \
		--duration 0.0001 --stutter 1.5us --stat-interval 0.25 --onoff-interval 1.000001 \
		--onoff-holdoff 2.5m --read-exit-delay 1.0000000015 --fwd-progress-holdoff 999999us \
		--shuffle-interval 7ns --stall-timeout 1.5h --call-rcu percpu --pin none \
		--stop-on-failure --gp-sync --gp-poll --n-barrier-cbs 2 -- --dry-run
	expect_out ' duration=100us '
	expect_out ' stutter=1500ns '
	expect_out ' shuffle_interval=7ns '
	expect_start_line_round_trips --flavor srcu srcu.hz=250 srcu.policy=v5.18 -d 2h \
		--seed 18446744073709551615 --cpus 4 -- --dry-run
	expect_start_line_round_trips rcutorture.torture_type=qsbr rcutorture.shutdown_secs=9 \
		rcutorture.nreaders=3 rcutorture.stat_interval=7 rcutorture.gp_exp=y \
		rcutorture.seed=42 rcutorture.cpus=2 rcutorture.onoff_interval=1.5s -- --dry-run
}

t_start_line_round_trips_scale() {
	expect_start_line_round_trips --test scale --seed 9 --cpus 2 --nwriters 2 --nreaders 1 \
		--holdoff 1500us --gp-async --gp-async-max 10 --writer-holdoff 0.0000015 \
		--min-samples 3 --pd-test --pd-busy-wait 2.5ms --readdelay 100 --duration 0 \
		--call-rcu percpu --pin scatter --stall-timeout 20.000001
	expect_out ' writer_holdoff=1500ns '
}

t_start_line_round_trips_ref() {
	expect_start_line_round_trips --test ref --flavor srcu --seed 4 --cpus 2 --loops 20 \
		--nruns 1 --readdelay 10 --threads 2 --pin none --stall-timeout 90.5s srcu.hz=100
}
