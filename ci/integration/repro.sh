# Integration tests: the repro line of a run that did not end SUCCESS,
# and --replay of a --json report (issue 18 item 1).

# The "Reproduce:" line of $OUT without its prefix, the program name
# replaced by the binary under test; one per run.
repro_args() {
	local line
	(($(grep -c -- '-torture: Reproduce: rcutorture ' "$OUT") == 1)) || die "not one Reproduce line"
	line=$(grep -- '-torture: Reproduce: rcutorture ' "$OUT")
	echo "${line#*: Reproduce: rcutorture }"
}

# The End line of $OUT without the seed-independent parts that race.
end_verdict() {
	grep -o -- '--- End of test: [A-Z_]*' "$OUT"
}

t_repro_line_pasted_fails_the_same_way() {
	run --flavor busted --seed 77 --cpus 3 --duration 3 --stutter 1.5us --nfakewriters 0 \
		--stat-interval 0 --stop-on-failure --json "$TEST_TMP/a.json"
	expect_status 1
	local args verdict start
	args=$(repro_args)
	verdict=$(end_verdict)
	start=$(grep -- ':--- Start of test: ' "$OUT")
	# Every option that differs from its default, and nothing else.
	[[ $args == "--flavor=busted --duration=3s --seed=77 --stop-on-failure --nfakewriters=0 --stutter=1500ns --cpus=3 --stat-interval=0s" ]] ||
		die "repro line: $args"
	[[ $(jqr "$TEST_TMP/a.json" .repro) == "rcutorture $args" ]] || die "JSON repro: $(jqr "$TEST_TMP/a.json" .repro)"
	# Pasted (through a shell, as a user would), it fails the same way
	# with the same parameters, and prints the same line.
	eval "run $args"
	expect_status 1
	[[ $(end_verdict) == "$verdict" ]] || die "pasted: $(end_verdict), first: $verdict"
	[[ $(grep -- ':--- Start of test: ' "$OUT") == "$start" ]] || die "pasted: another Start line"
	[[ $(repro_args) == "$args" ]] || die "pasted run's repro line differs: $(repro_args)"
}

t_repro_line_absent_on_success_and_quotes() {
	run --duration 300ms --stat-interval 0 --json "$TEST_TMP/s.json"
	expect_status 0
	expect_no_out 'Reproduce:'
	jqr "$TEST_TMP/s.json" '.repro == null and (.config.args | index("--duration=300ms") != null)' >/dev/null ||
		die "success: repro $(jqr "$TEST_TMP/s.json" .repro), args $(jqr "$TEST_TMP/s.json" .config.args)"
	# A --plugin-dir with a space and a quote is quoted for the shell.
	local dir="$TEST_TMP/it's here"
	mkdir -p "$dir"
	run --flavor busted --plugin-dir "$dir" --seed 5 --cpus 2 --duration 3 --stop-on-failure --stat-interval 0
	expect_status 1
	local args
	args=$(repro_args)
	[[ $args == *" '--plugin-dir=$TEST_TMP/it'\\''s here'"* ]] || die "not quoted: $args"
	eval "run $args --dry-run"
	expect_status 0
	rmdir "$dir"
	eval "run $args --dry-run"
	expect_status 2
	expect_err "--plugin-dir: '$TEST_TMP/it's here' is not a directory"
}

t_repro_line_swarm_and_hunt_reproduce_the_draw() {
	# --swarm: the seed redraws the same features; an option given at
	# its default stays in the line (the draw keeps given options).
	run --flavor busted --swarm --seed 4242 --cpus 2 --duration 3 --stutter 0 --stat-interval 0
	expect_status 1
	local args draw
	args=$(repro_args)
	draw=$(grep -- '-torture: swarm: ' "$OUT")
	[[ $args == *"--stutter=0s"* && $args == *"--swarm"* && $args == *"--seed=4242"* ]] || die "swarm repro: $args"
	eval "run $args"
	expect_status 1
	[[ $(grep -- '-torture: swarm: ' "$OUT") == "$draw" ]] || die "another draw when pasted"
	# --hunt: the preset's values are not spelled out (they would count
	# as given and change the draw).
	run --flavor busted --hunt --seed 99 --cpus 2 --duration 3 --stat-interval 0
	expect_status 1
	args=$(repro_args)
	draw=$(grep -- '-torture: swarm: ' "$OUT")
	[[ $args == *"--hunt"* && $args != *"--preempt"* && $args != *"--race-delay"* && $args != *"--swarm"* ]] || die "hunt repro: $args"
	eval "run $args"
	[[ $(grep -- '-torture: swarm: ' "$OUT") == "$draw" ]] || die "another draw when pasted"
}

t_replay_reruns_the_json_report() {
	run --scenario BUSTED-BARRIER --seed 31 --cpus 2 --duration 5 --stat-interval 0 \
		--json "$TEST_TMP/r.json"
	expect_status 1
	local start first_args
	start=$(grep -- ':--- Start of test: ' "$OUT")
	first_args=$(repro_args)
	run --replay "$TEST_TMP/r.json" --json "$TEST_TMP/r2.json"
	expect_status 1
	[[ $(grep -- ':--- Start of test: ' "$OUT") == "$start" ]] || die "replay: another Start line: $(grep -- ':--- Start of test: ' "$OUT")"
	[[ $(repro_args) == "$first_args" ]] || die "replay: repro $(repro_args)"
	[[ $(jqr "$TEST_TMP/r2.json" .config.args) == "$(jqr "$TEST_TMP/r.json" .config.args)" ]] || die "replay: other config.args"
	jqr "$TEST_TMP/r2.json" '.verdict == "FAILURE" and .first_failure.check == "rtbe"' >/dev/null || die "replay: $(jqr "$TEST_TMP/r2.json" .first_failure)"
	# Options after --replay override the report's.
	run --replay "$TEST_TMP/r.json" --seed 32 --dry-run
	expect_status 0
	expect_out ':--- Start of test: .* seed=32 '
}

t_replay_bad_input_exits_2() {
	printf '{"format": 1, "tool": {"name": "rcutorture"}, "config": {}}' >"$TEST_TMP/noargs.json"
	printf '{"format": 1, "tool": {"name": "rcutorture"}, "config": {"args": ["--cpus=0"]}}' >"$TEST_TMP/badarg.json"
	printf '{"format": 1, "tool": {"name": "rcutorture"}, "config": {"args": ["--replay=x"]}}' >"$TEST_TMP/nested.json"
	printf '{"format": 2, "tool": {"name": "rcutorture"}, "config": {"args": ["-q"]}}' >"$TEST_TMP/format.json"
	printf '{"format": 1, "tool": {"name": "rcutorture"}, "config": {"args": [3]}}' >"$TEST_TMP/notstr.json"
	printf 'not json' >"$TEST_TMP/text.json"
	bad_input "--replay: cannot read '$TEST_TMP/none.json' as JSON" --replay "$TEST_TMP/none.json"
	bad_input "--replay: cannot read '$TEST_TMP/text.json' as JSON" --replay "$TEST_TMP/text.json"
	bad_input "--replay: '$TEST_TMP/noargs.json' has no config.args list" --replay "$TEST_TMP/noargs.json"
	bad_input "--replay: '$TEST_TMP/badarg.json': config.args: --cpus: '0' is not valid" --replay "$TEST_TMP/badarg.json"
	bad_input "--replay: '$TEST_TMP/nested.json': config.args: --replay: not inside a replayed report" --replay "$TEST_TMP/nested.json"
	bad_input "--replay: '$TEST_TMP/format.json' has JSON format 2; expected 1" --replay "$TEST_TMP/format.json"
	bad_input "config.args\[0\] is not a string" --replay "$TEST_TMP/notstr.json"
	bad_input "--replay: empty file name" --replay ""
	bad_input "--replay: not with --scenario" --scenario BUSTED --replay "$TEST_TMP/noargs.json"
	printf '{"format": 1, "tool": {"name": "rcutorture"}, "config": {"args": ["-q"]}}' >"$TEST_TMP/ok.json"
	bad_input "--scenario: not with --replay" --replay "$TEST_TMP/ok.json" --scenario BUSTED
	bad_input "--replay: given twice" --replay "$TEST_TMP/ok.json" --replay "$TEST_TMP/ok.json"
}

t_repro_line_on_a_scale_stall() {
	run --test scale --flavor busted-hang busted-hang.hang=sync --stall-timeout 1s --duration 3 \
		--cpus 2 --seed 3 --holdoff 0
	expect_status 4
	expect_out '^busted-hang-scale: Reproduce: rcutorture --test=scale --flavor=busted-hang --duration=3s --seed=3 --stall-timeout=1s --cpus=2 --holdoff=0s busted-hang.hang=sync$'
	eval "run $(sed -n 's/^busted-hang-scale: Reproduce: rcutorture //p' "$OUT")"
	expect_status 4
	expect_out 'End of test: STALL'
}
