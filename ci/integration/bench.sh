# Integration tests: ci/bench/compare, on two small bench.json documents.

# Run the comparison; stdout to $OUT, stderr to $ERR, status to $STATUS.
compare() {
	ci/bench/compare "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
}

# Two runs: memb's p50 doubled, SRCU's workload A 4% slower, a flavor
# only in the new run.
write_bench_pair() {
	cat >"$TEST_TMP/old.json" <<'JSON'
{ "readers": 2, "flavors": [],
  "scale": [ { "flavor": "memb", "readers": 0, "exit": 0, "p50_us": 1.5, "bucket_us": 0.01, "histogram": [[1.5, 9]] },
             { "flavor": "memb", "readers": 2, "exit": 0, "p50_us": 4 } ],
  "ref": { "readers": [1, 2], "columns": [ { "name": "memb", "ns_per_section": [1, 1.25] } ] },
  "srcu": { "gps": 5000, "points": [ { "label": "final@250", "a": { "seconds": 0.25 } } ] } }
JSON
	cat >"$TEST_TMP/new.json" <<'JSON'
{ "readers": 2, "flavors": [],
  "scale": [ { "flavor": "memb", "readers": 0, "exit": 0, "p50_us": 3, "bucket_us": 0.01, "histogram": [[3, 9]] },
             { "flavor": "memb", "readers": 2, "exit": 0, "p50_us": 4 },
             { "flavor": "prcu", "readers": 0, "exit": 0, "p50_us": 2 } ],
  "ref": { "readers": [1, 2], "columns": [ { "name": "memb", "ns_per_section": [1, 1.25] } ] },
  "srcu": { "gps": 5000, "points": [ { "label": "final@250", "a": { "seconds": 0.26 } } ] } }
JSON
}

t_bench_compare_marks_changed_figures() {
	write_bench_pair
	compare "$TEST_TMP/old.json" "$TEST_TMP/new.json"
	expect_status 0
	expect_out '^figure +old +new +new/old$'
	expect_out '^scale\.memb\.0r\.p50_us +1\.5 +3 +2 \*$'
	expect_out '^scale\.memb\.2r\.p50_us +4 +4 +1$'
	expect_out '^srcu\.points\.final@250\.a\.seconds +0\.25 +0\.26 +1\.04$'
	expect_out '^ref\.columns\.memb\.ns_per_section\.1 +1\.25 +1\.25 +1$'
	expect_out '^5 figures in both; 1 changed by more than x1\.25 either way \(\*\); 0 only in the old run, 1 only in the new$'
	expect_no_out 'histogram|bucket_us|exit|gps|^ref\.readers'
	# A tighter threshold marks the 4 %, a filter keeps what it matches.
	compare "$TEST_TMP/old.json" "$TEST_TMP/new.json" --threshold 1.03 --match '^srcu\.'
	expect_status 0
	expect_out '^srcu\.points\.final@250\.a\.seconds +0\.25 +0\.26 +1\.04 \*$'
	expect_no_out '^scale'
	expect_out '^1 figures in both; 1 changed by more than x1\.03 either way'
}

t_bench_compare_bad_input() {
	write_bench_pair
	local args
	for args in "$TEST_TMP/old.json" "$TEST_TMP/old.json $TEST_TMP/new.json --threshold 1" \
		"$TEST_TMP/old.json $TEST_TMP/new.json --match (" "$TEST_TMP/old.json $TEST_TMP/nothing.json" \
		"$TEST_TMP/old.json $TEST_TMP/new.json --bogus"; do
		compare $args
		expect_status 2
		(($(wc -l <"$ERR") == 1)) || die "'$args': expected a one-line error"
		expect_err '^compare: '
		[[ ! -s $OUT ]] || die "'$args': printed to stdout"
	done
	echo '{"not": "a bench"}' >"$TEST_TMP/other.json"
	compare "$TEST_TMP/old.json" "$TEST_TMP/other.json"
	expect_status 2
	expect_err "is not a bench.json written by make bench"
}

# What the help promises: an empty, non-JSON, wrongly shaped or figureless
# file is exit 2 with one line naming it, not "0 figures in both".
t_bench_compare_rejects_empty_and_malformed_files() {
	write_bench_pair
	: >"$TEST_TMP/empty.json"
	echo '{"scale": 1, "flavors": 2}' >"$TEST_TMP/shape.json"
	echo '{"scale": [], "flavors": []}' >"$TEST_TMP/nofigures.json"
	echo '{"scale": [], "flavors": []} {"scale": [], "flavors": []}' >"$TEST_TMP/two.json"
	printf '{"scale": [' >"$TEST_TMP/cut.json"
	local f
	for f in empty shape nofigures two cut; do
		compare "$TEST_TMP/old.json" "$TEST_TMP/$f.json"
		expect_status 2
		expect_err "^compare: '.*/$f.json' is not a bench.json written by make bench"
		(($(wc -l <"$ERR") == 1)) || die "$f: expected a one-line error"
		[[ ! -s $OUT ]] || die "$f: printed to stdout"
		compare "$TEST_TMP/$f.json" "$TEST_TMP/new.json"
		expect_status 2
	done
	compare "$TEST_TMP/old.json" "$TEST_TMP"
	expect_status 2
}

# --fail-on-regression gates a pipeline: exit 1 naming what got worse (a
# time that grew, a rate that fell), 0 for improvements and small changes.
t_bench_compare_fail_on_regression() {
	write_bench_pair
	compare "$TEST_TMP/old.json" "$TEST_TMP/new.json" --fail-on-regression
	expect_status 1
	expect_out '^scale\.memb\.0r\.p50_us +1\.5 +3 +2 \*$'
	expect_out '^Regressed beyond x1\.25: 1: scale\.memb\.0r\.p50_us$'
	# The other way round p50 halved: an improvement, not a regression.
	compare "$TEST_TMP/new.json" "$TEST_TMP/old.json" --fail-on-regression
	expect_status 0
	expect_out '^No regression beyond x1\.25$'
	# The 4 % SRCU slowdown counts only under a tighter threshold.
	compare "$TEST_TMP/old.json" "$TEST_TMP/new.json" --fail-on-regression --match '^srcu\.'
	expect_status 0
	compare "$TEST_TMP/old.json" "$TEST_TMP/new.json" --fail-on-regression --match '^srcu\.' --threshold 1.03
	expect_status 1
	expect_out '^Regressed beyond x1\.03: 1: srcu\.points\.final@250\.a\.seconds$'
	# A rate that fell is a regression; one that rose is not; a count
	# (nodelay) and a run length (flavors.*.seconds) are not judged.
	cat >"$TEST_TMP/r1.json" <<'JSON'
{ "flavors": [ { "flavor": "memb", "rcutorture": { "seconds": 3, "reads_per_s": 1000, "gps_per_s": 10 }, "ratio": { "reads": 0.5 } } ],
  "scale": null, "srcu": { "points": [ { "label": "x", "a": { "nodelay": 10 } } ] } }
JSON
	cat >"$TEST_TMP/r2.json" <<'JSON'
{ "flavors": [ { "flavor": "memb", "rcutorture": { "seconds": 9, "reads_per_s": 500, "gps_per_s": 30 }, "ratio": { "reads": 0.25 } } ],
  "scale": null, "srcu": { "points": [ { "label": "x", "a": { "nodelay": 1 } } ] } }
JSON
	compare "$TEST_TMP/r1.json" "$TEST_TMP/r2.json" --fail-on-regression
	expect_status 1
	expect_out '^Regressed beyond x1\.25: 2: flavors\.memb\.ratio\.reads flavors\.memb\.rcutorture\.reads_per_s$'
	# Without the option the exit stays 0 and no verdict line is added.
	compare "$TEST_TMP/r1.json" "$TEST_TMP/r2.json"
	expect_status 0
	expect_no_out '^(Regressed|No regression)'
}

# ci/bench/busted (make bench): the busted controls' time to the first
# failure, default options and --hunt side by side, and with --before a
# second binary's column with the ratio now/before; a control that passes
# is a problem (exit 1); bad arguments exit 2.
t_busted_bench_table() {
	ci/bench/busted --bin "$BIN" --before "$BIN" --out "$TEST_TMP/b" --only "busted busted-barrier" \
		--seeds 1 --limit 10 >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 0
	expect_out '^control +failed +default s +failed +hunt s +hunt/default +failed +before s +now/before  checks \(default\)$'
	expect_out '^busted +1/1 +[0-9.]+ +1/1 +[0-9.]+ +[0-9.]+ +1/1 +[0-9.]+ +[0-9.]+  (early grace period|too-short grace period|early callback)'
	expect_out '^busted-barrier +1/1 +[0-9.]+ +1/1 +[0-9.]+ +[0-9.]+ +1/1 +[0-9.]+ +[0-9.]+  rtbe'
	[[ $(jqr "$TEST_TMP/b/busted.json" '.controls["busted-barrier"].default.failed') == 1 ]] ||
		die "busted.json lacks busted-barrier's default run"
	grep -q -- '--n-barrier-cbs 4' <(head -n 1 "$TEST_TMP/b/busted/busted-barrier.default.1.log") ||
		grep -q 'n_barrier_cbs=4' "$TEST_TMP/b/busted/busted-barrier.default.1.log" ||
		die "busted-barrier ran without the barrier test"
	ci/bench/busted --bin "$BIN" --only "busted memb" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 2
	expect_err "^busted: unknown control 'memb' in --only"
	ci/bench/busted --bin "$BIN" --seeds 0 >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 2
	expect_err "^busted: bad --seeds '0'"
}

# ci/bench/soak (make soak): one table row per flavor with its seed,
# loads and verdict; a correct flavor's SUCCESS leaves the exit status 0,
# a flavor that fails (a negative control here) makes it 1 and shows in
# its row; dpdk-qsbr gets check=scan; bad arguments exit 2.
t_soak_bench_table() {
	ci/bench/soak --bin "$BIN" --out "$TEST_TMP/s" --duration 1 --options "--hunt" \
		--flavors "memb busted" --seed 7 >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 1
	expect_out '^Command: .* --flavor F --hunt --duration 1 --stat-interval 60s --seed 7$'
	expect_out '^\| memb \| 7 \| [0-9:]+ \| [0-9.]+, [0-9.]+ \| SUCCESS \(exit 0\) \| [0-9]+ \(0/0/0\) \| 0 \| [0-9]+/[0-9]+ \| [0-9]+ \| [0-9]+ \|$'
	expect_out '^\| busted \| 7 \| .* \| FAILURE \(exit 1\) \|'
	[[ -s $TEST_TMP/s/soak/memb.log && -s $TEST_TMP/s/soak.md ]] || die "no log or table written"
	grep -q '^| memb | 7 |' "$TEST_TMP/s/soak.md" || die "soak.md lacks memb's row"
	if "$BIN" --list-flavors | grep -q '^dpdk-qsbr '; then
		ci/bench/soak --bin "$BIN" --out "$TEST_TMP/d" --duration 1 --options "--gp-sync" \
			--flavors dpdk-qsbr >"$OUT" 2>"$ERR"
		STATUS=$?
		expect_status 0
		expect_out '^\| dpdk-qsbr \(dpdk-qsbr.check=scan\) \| [0-9]+ \| .* SUCCESS \(exit 0\)'
	fi
	ci/bench/soak --bin "$BIN" --bogus >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 2
	expect_err "^soak: unknown argument '--bogus'"
	ci/bench/soak --bin "$TEST_TMP/none" >"$OUT" 2>"$ERR"
	STATUS=$?
	expect_status 2
	expect_err "^soak: no executable"
}
