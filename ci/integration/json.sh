# Integration tests: --json, checked against the text report with jq.

# The document in $1 agrees with the text report in $OUT.
expect_json_matches_text() { # json-file
	local j=$1 seed
	jq -e . "$j" >/dev/null || die "not valid JSON: $(head -c 200 "$j")"
	seed=$(grep -o 'Start of test: .* seed=[0-9]*' "$OUT" | sed 's/.*seed=//')
	[[ $(jqr "$j" .seed) == "$seed" ]] || die "seed $(jqr "$j" .seed), text $seed"
	[[ $(jqr "$j" .config.seed) == "$seed" ]] || die "config.seed differs"
	[[ $(jqr "$j" .exit_status) == "$STATUS" ]] || die "exit_status $(jqr "$j" .exit_status), process $STATUS"
	grep -q "End of test: $(jqr "$j" .verdict): " "$OUT" || die "verdict $(jqr "$j" .verdict) is not the text's"
	[[ $(jqr "$j" .final.ver) == "$(text_field ver)" ]] || die "ver differs"
	[[ $(jqr "$j" .final.rtmbe) == "$(text_field rtmbe)" ]] || die "rtmbe differs"
	[[ $(jqr "$j" '.final.reader_pipe | map(tostring) | join(" ")') == \
		"$(grep 'Reader Pipe:' "$OUT" | tail -n 1 | sed 's/.*Reader Pipe: *//')" ]] || die "reader_pipe differs"
	[[ $(jqr "$j" '.final.free_block_circulation | map(tostring) | join(" ")') == \
		"$(grep 'Free-Block Circulation:' "$OUT" | tail -n 1 | sed 's/.*Circulation: *//')" ]] || die "circulation differs"
	[[ $(jqr "$j" '.final.callbacks | "invoked: \(.invoked) early: \(.early) duplicate: \(.duplicate) lost: \(.lost)"') == \
		"$(grep 'Callbacks: invoked' "$OUT" | tail -n 1 | sed 's/.*Callbacks: //')" ]] || die "callbacks differ"
	[[ $(jqr "$j" '.final.writer_gps | "sync: \(.sync) exp: \(.exp) normal: \(.normal) cond: \(.cond) poll: \(.poll)"') == \
		"$(grep 'Writer GPs:' "$OUT" | tail -n 1 | sed 's/.*Writer GPs: //')" ]] || die "writer GPs differ"
	[[ "Memory: max RSS: $(awk -v k="$(jqr "$j" .final.max_rss_kib)" 'BEGIN { printf "%.1f", k / 1024 }') MiB" == \
		"$(grep -o 'Memory: max RSS: .*' "$OUT")" ]] || die "max RSS differs"
	# The Machine line: load and CPUs exact, others' share (a rounded
	# percentage in the text, a fraction to 2 places in JSON) within 1.
	local machine share
	machine=$(grep -o 'Machine: load average .*' "$OUT" | tail -n 1)
	[[ ${machine%%, other*} == "Machine: load average $(awk -v l="$(jqr "$j" .final.load_avg)" 'BEGIN { printf "%.2f", l }') on $(jqr "$j" .final.host_cpus) CPUs" ]] ||
		die "machine load differs: $machine"
	share=$(jq -r .final.others_cpu_share "$j") # jqr fails on null
	if [[ $share == null ]]; then
		[[ $machine != *other* ]] || die "others' share in the text only: $machine"
	else
		[[ $machine =~ other\ processes\ ([0-9]+)%\ of\ their\ time$ ]] || die "no others' share: $machine"
		awk -v a="${BASH_REMATCH[1]}" -v b="$share" 'BEGIN { d = a - b * 100; exit !(d <= 1 && d >= -1) }' ||
			die "others' share ${BASH_REMATCH[1]}% in the text, $share in JSON"
	fi
	[[ $(jqr "$j" .final.host_cpus) == "$(getconf _NPROCESSORS_ONLN)" ]] || die "host_cpus $(jqr "$j" .final.host_cpus), online CPUs $(getconf _NPROCESSORS_ONLN)"
	[[ "GPs/s: $(jqr "$j" '.rates.gps_per_s * 10 | round / 10')" == \
		"$(grep -o 'GPs/s: [0-9.]*' "$OUT" | sed 's/\.0$//')" ]] || die "GPs/s differ"
	jqr "$j" '.final | (.reader_batch | length) == 11 and .onoff.offline_attempts >= 0 and .barrier.attempts >= 0' >/dev/null
	jqr "$j" '.tool.version and .tool.flavor_abi == 4 and .format == 1' >/dev/null
}

t_json_document_matches_text_report() {
	# Three blocks are asked of 3 s at 500 ms: a margin for a starved
	# stats thread.
	run --duration 3 --stat-interval 500ms --seed 12345 --json "$TEST_TMP/r.json" --n-barrier-cbs 2
	expect_status 0
	expect_json_matches_text "$TEST_TMP/r.json"
	[[ $(jqr "$TEST_TMP/r.json" .verdict) == SUCCESS ]] || die "not SUCCESS"
	jqr "$TEST_TMP/r.json" '.first_failure == null and .stall == null and .scenario == null and .flavor.plugin == null' >/dev/null
	jqr "$TEST_TMP/r.json" '.config | .nreaders >= 1 and .duration_s == 3 and .stat_interval_s == 0.5 and .n_barrier_cbs == 2 and .call_rcu == "global"' >/dev/null
	# One interval per printed stats block, in time order.
	local blocks=$(($(grep -c 'Reader Pipe:' "$OUT") - 1))
	[[ $(jqr "$TEST_TMP/r.json" '.intervals | length') == "$blocks" ]] || die "intervals: $(jqr "$TEST_TMP/r.json" '.intervals | length'), blocks $blocks"
	((blocks >= 3)) || die "only $blocks periodic blocks"
	jqr "$TEST_TMP/r.json" '[.intervals[].elapsed_s] | . == sort and .[0] > 0' >/dev/null
	jqr "$TEST_TMP/r.json" '.intervals[0] | has("reader_pipe") and has("ver") and has("callbacks")' >/dev/null
}

t_json_to_stdout_moves_text_to_stderr() {
	run --duration 1 --stat-interval 0 --json -
	expect_status 0
	jq -e . "$OUT" >/dev/null || die "stdout is not only JSON"
	expect_err '^memb-torture:--- End of test: SUCCESS: '
	mv "$OUT" "$TEST_TMP/doc.json"
	cp "$ERR" "$OUT"
	expect_json_matches_text "$TEST_TMP/doc.json"
}

t_json_on_failure() {
	run --flavor busted --duration 3 --stop-on-failure --stat-interval 0 --json "$TEST_TMP/f.json"
	expect_status 1
	expect_json_matches_text "$TEST_TMP/f.json"
	# Which check fires first under --stop-on-failure is a race (the early
	# grace-period check has no counter of its own); every report counts
	# in failed_checks, and the final block says it failed, as the text.
	jqr "$TEST_TMP/f.json" '.verdict == "FAILURE" and .final.failed and .final.failed_checks > 0' >/dev/null
	[[ $(grep -o 'Failed checks: [0-9]*' "$OUT" | tail -n 1) == "Failed checks: $(jqr "$TEST_TMP/f.json" .final.failed_checks)" ]] ||
		die "failed checks differ between the text and the JSON"
	local text_check=$(grep 'First failure: at' "$OUT" | sed 's/.*caught by: //')
	[[ $(jqr "$TEST_TMP/f.json" .first_failure.check) == "$text_check" ]] || die "first failure check differs"
	[[ $(jqr "$TEST_TMP/f.json" .first_failure.time_s) == \
		"$(grep -o 'First failure: at [0-9.]*' "$OUT" | sed 's/.* at //; s/0*$//; s/\.$//')" ]] || die "first failure time differs"
	# Every check that failed: the text's "Failed check:" lines and the
	# JSON's checks_failed, in the same order, the first one first, their
	# counts adding up to failed_checks.
	local text_rows json_rows
	text_rows=$(sed -n 's/^busted-torture: Failed check: \(.*\): \([0-9]*\) failures\{0,1\} from \([0-9.]*\) s, first: \(.*\)$/\1|\2|\3|\4/p' "$OUT")
	json_rows=$(jqr "$TEST_TMP/f.json" '.checks_failed[] | "\(.check)|\(.count)|\(.first_s)|\(.first)"')
	[[ -n $text_rows ]] || die "no Failed check: lines"
	[[ ${text_rows%%|*} == "$text_check" ]] || die "the first Failed check: line is not the first failure's check"
	# The JSON writes 0.010 as 0.01; compare the times as numbers.
	paste -d '\n' <(echo "$text_rows") <(echo "$json_rows") | awk -F'|' '
		NR % 2 { c = $1; n = $2; t = $3; m = $4; next }
		$1 != c || $2 != n || $3 + 0 != t + 0 || $4 != m { bad = 1 }
		END { exit bad }' || die "Failed check: lines differ from checks_failed: $text_rows / $json_rows"
	[[ $(jqr "$TEST_TMP/f.json" '[.checks_failed[].count] | add') == "$(jqr "$TEST_TMP/f.json" .final.failed_checks)" ]] ||
		die "checks_failed counts do not add up to final.failed_checks"
}

t_json_on_stall() {
	run --flavor busted-hang busted-hang.hang=sync --stall-timeout 1s --duration 30 --stat-interval 0 --json "$TEST_TMP/s.json"
	expect_status 4
	expect_json_matches_text "$TEST_TMP/s.json"
	[[ $(jqr "$TEST_TMP/s.json" .stall) =~ (writer|fakewriter)\ [0-9]+\ stuck\ in\ synchronize ]] || die "stall: $(jqr "$TEST_TMP/s.json" .stall)"
	# The stall is the first failure, with what stalled as its detail.
	[[ $(jqr "$TEST_TMP/s.json" .first_failure.check) == stall ]] || die "first_failure: $(jqr "$TEST_TMP/s.json" .first_failure)"
	[[ $(jqr "$TEST_TMP/s.json" .first_failure.detail) == "$(jqr "$TEST_TMP/s.json" .stall)" ]] || die "first_failure.detail differs from stall"
}

t_json_on_crash() {
	run --flavor busted-crash --duration 10 --json "$TEST_TMP/c.json"
	expect_status 5
	jqr "$TEST_TMP/c.json" '.verdict == "CRASH" and .exit_status == 5' >/dev/null
	[[ $(jqr "$TEST_TMP/c.json" .final.ver) == "$(text_field ver)" ]] || die "ver differs"
}

t_json_keeps_intervals_when_quiet() {
	run --quiet --duration 1.2 --stat-interval 250ms --json "$TEST_TMP/q.json"
	expect_status 0
	(($(grep -c 'Reader Pipe:' "$OUT") == 1)) || die "--quiet printed periodic blocks"
	(($(jqr "$TEST_TMP/q.json" '.intervals | length') >= 3)) || die "no intervals collected"
}

t_json_bad_destination() {
	run --json "$TEST_TMP/no/such/dir/x.json" --duration 1
	expect_status 2
	expect_err "^rcutorture: --json: cannot write '.*/no/such/dir/x.json': No such file or directory$"
	(($(wc -l <"$ERR") == 1)) || die "not one line"
	[[ ! -s $OUT ]] || die "ran anyway"
	run --json "" --duration 1
	expect_status 2
	expect_err '^rcutorture: --json: empty file name'
}

# A report that could not be written is an internal error (exit 5), with
# one line on stderr saying so; the verdict alone must not reach CI as 0.
t_json_write_error_exits_5() {
	local dest
	for dest in /dev/full /proc/version; do
		[[ -e $dest ]] || continue
		# Not root: /proc/version cannot even be opened, which is exit 2.
		[[ $dest == /proc/version && $(id -u) != 0 ]] && continue
		run --duration 1 --stat-interval 0 --json "$dest"
		expect_status 5
		expect_err "^rcutorture: --json: writing failed: "
		(($(wc -l <"$ERR") == 1)) || die "$dest: not one line on stderr"
	done
	[[ -e /dev/full ]] || return 0
	"$BIN" --duration 1 --stat-interval 0 --json - >/dev/full 2>"$ERR"
	STATUS=$?
	expect_status 5
}

t_text_report_write_error_exits_5() {
	[[ -e /dev/full ]] || return 0
	"$BIN" --duration 1 --stat-interval 0 >/dev/full 2>"$ERR"
	STATUS=$?
	expect_status 5
	expect_err '^rcutorture: writing the report to standard output failed$'
	(($(wc -l <"$ERR") == 1)) || die "not one line on stderr"
	"$BIN" --help >/dev/full 2>"$ERR"
	STATUS=$?
	expect_status 5
}

# --dry-run checks the --json destination as a real run does (exit 2), and
# leaves no file behind and an existing one untouched.
t_json_dry_run_checks_destination() {
	run --dry-run --json "$TEST_TMP/no/such/dir/x.json"
	expect_status 2
	expect_err "^rcutorture: --json: cannot write '.*/no/such/dir/x.json': No such file or directory$"
	(($(wc -l <"$ERR") == 1)) || die "not one line"
	[[ ! -s $OUT ]] || die "dry run printed before failing"
	run --dry-run --json "$TEST_TMP"
	expect_status 2
	expect_err "^rcutorture: --json: cannot write '.*': Is a directory$"
	run --dry-run --json "$TEST_TMP/new.json"
	expect_status 0
	[[ ! -e $TEST_TMP/new.json ]] || die "dry run created the JSON file"
	echo keep >"$TEST_TMP/old.json"
	run --dry-run --json "$TEST_TMP/old.json"
	expect_status 0
	[[ $(cat "$TEST_TMP/old.json") == keep ]] || die "dry run truncated an existing file"
}
