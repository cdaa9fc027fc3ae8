# report.sh: each run's verdict and record, the campaign's summary table
# and summary.json (sourced by rcutorture-campaign).

# The verdict of a finished run, from its exit status and report; LOST
# when its host died while it ran, NOT_RUN when no host was left for it.
verdict_of() { # dir
	local st
	[[ -e $1/lost ]] && { echo LOST; return; }
	[[ -e $1/not-run ]] && { echo NOT_RUN; return; }
	st=$(cat "$1/exit-status" 2>/dev/null) || st=missing
	case $st in
	0) echo SUCCESS ;;
	1) echo FAILURE ;;
	2) echo USAGE ;;
	3) echo RCU_HOTPLUG ;;
	4) echo STALL ;;
	5) grep -q 'End of test: CRASH' "$1/console.log" && echo CRASH || echo INTERNAL_ERROR ;;
	124 | 137) echo HUNG ;;
	*) echo "EXIT_$st" ;;
	esac
}

# The run's first failure as the summary shows it ("12.3 s: rtbe"), or
# what became of a lost run.
first_failure_of() { # dir
	if [[ -e $1/lost ]]; then
		cat "$1/lost"
	elif [[ -e $1/not-run ]]; then
		cat "$1/not-run"
	else
		grep -o 'First failure: .*' "$1/console.log" 2>/dev/null | tail -n 1 |
			sed 's/First failure: //; s/^at \([0-9.]*\) s, caught by: /\1 s: /'
	fi
}

# Write what the campaign knows of run I next to what run-job wrote: its
# host, seed, scenario, arguments (one per line, for --rerun), expected
# verdict and verdict.
run_record() { # index host
	local dir=$results/${RUN_NAME[$1]}
	mkdir -p "$dir"
	echo "$2" >"$dir/host"
	echo "${RUN_SEED[$1]}" >"$dir/seed"
	echo "${RUN_SCEN[$1]}" >"$dir/scenario"
	tr '\t' '\n' <<<"${RUN_ARGS[$1]}" >"$dir/args"
	echo "${RUN_EXPECT[$1]}" >"$dir/expected"
	verdict_of "$dir" >"$dir/verdict"
}

# The summary table (stdout), one row per run, then the runs that did not
# end as expected; sets UNEXPECTED and LOST (counts).  The seed and host
# columns are left out in the old runner's format (--batches).
summary_table() {
	local i dir v ver rate first row bad=() lost=()
	if ((COMPAT)); then
		printf '%-20s %-14s %-12s %10s %10s  %s\n' scenario verdict expected 'GPs (ver)' GPs/s 'first failure'
	else
		printf '%-20s %-14s %-12s %10s %10s %-20s %-16s %s\n' run verdict expected 'GPs (ver)' GPs/s seed host 'first failure'
	fi
	for i in "${!RUN_NAME[@]}"; do
		dir=$results/${RUN_NAME[i]}
		v=$(cat "$dir/verdict")
		ver=$(grep -o ' ver: [0-9]*' "$dir/console.log" 2>/dev/null | tail -n 1 | awk '{print $2}')
		rate=$(grep -o 'GPs/s: [0-9.]*' "$dir/console.log" 2>/dev/null | tail -n 1 | awk '{print $2}')
		first=$(first_failure_of "$dir")
		if ((COMPAT)); then
			printf '%-20s %-14s %-12s %10s %10s  %s\n' "${RUN_NAME[i]}" "$v" "${RUN_EXPECT[i]}" \
				"${ver:--}" "${rate:--}" "${first:--}"
		else
			printf '%-20s %-14s %-12s %10s %10s %-20s %-16s %s\n' "${RUN_NAME[i]}" "$v" "${RUN_EXPECT[i]}" \
				"${ver:--}" "${rate:--}" "${RUN_SEED[i]}" "$(cat "$dir/host")" "${first:--}"
		fi
		[[ $v == "${RUN_EXPECT[i]}" ]] || bad+=("${RUN_NAME[i]} ($v, expected ${RUN_EXPECT[i]})")
		[[ $v == LOST || $v == NOT_RUN ]] && lost+=("${RUN_NAME[i]}")
	done
	if ((${#bad[@]})); then
		echo "${#bad[@]} of ${#RUN_NAME[@]} runs did not end as expected: ${bad[*]}"
	else
		echo "all ${#RUN_NAME[@]} runs ended as expected"
	fi
	summary_hosts_lines
}

# One line per host that died during the campaign, naming the runs it
# took down with it (hosts.sh fills DEAD_HOSTS).
summary_hosts_lines() {
	local h i runs
	for h in "${!DEAD_HOSTS[@]}"; do
		runs=()
		for i in "${!RUN_NAME[@]}"; do
			[[ -e $results/${RUN_NAME[i]}/lost && $(cat "$results/${RUN_NAME[i]}/host") == "$h" ]] &&
				runs+=("${RUN_NAME[i]}")
		done
		echo "host $h died during the campaign; runs lost with it: ${runs[*]:-none}; the runs it had not started went to the other hosts"
	done
}

# summary.json: the campaign and one object per run, with the counts.
summary_json() { # file
	local i dir
	for i in "${!RUN_NAME[@]}"; do
		dir=$results/${RUN_NAME[i]}
		jq -n --arg run "${RUN_NAME[i]}" --arg scenario "${RUN_SCEN[i]}" --arg seed "${RUN_SEED[i]}" \
			--arg host "$(cat "$dir/host")" --arg verdict "$(cat "$dir/verdict")" \
			--arg expected "${RUN_EXPECT[i]}" --arg status "$(cat "$dir/exit-status" 2>/dev/null)" \
			--arg ver "$(grep -o ' ver: [0-9]*' "$dir/console.log" 2>/dev/null | tail -n 1 | awk '{print $2}')" \
			--arg ms "$(cat "$dir/elapsed-ms" 2>/dev/null)" --arg first "$(first_failure_of "$dir")" \
			--arg cpus "${RUN_CPUS[i]}" '{run: $run, scenario: $scenario, seed: ($seed | tonumber),
				host: $host, verdict: $verdict, expected: $expected, ok: ($verdict == $expected),
				exit_status: (if $status == "" then null else ($status | tonumber) end),
				gps: (if $ver == "" then null else ($ver | tonumber) end), cpus: ($cpus | tonumber),
				seconds: (if $ms == "" then null else ($ms | tonumber) / 1000 end),
				first_failure: (if $first == "" or $first == "none" then null else $first end)}'
	done | jq -s --arg dir "$results" --arg bin "$opt_bin" --arg started "$STARTED" \
		--arg ended "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --arg hosts "${opt_hosts:-}" \
		--argjson dead "$(printf '%s\n' "${!DEAD_HOSTS[@]}" | jq -R . | jq -s 'map(select(. != ""))')" \
		'{campaign: $dir, bin: $bin, started: $started, ended: $ended,
		  hosts_file: (if $hosts == "" then null else $hosts end), dead_hosts: $dead,
		  counts: {runs: length, as_expected: (map(select(.ok)) | length),
			   unexpected: (map(select(.ok | not)) | length),
			   lost: (map(select(.verdict == "LOST" or .verdict == "NOT_RUN")) | length),
			   by_verdict: (group_by(.verdict) | map({(.[0].verdict): length}) | add // {})},
		  runs: .}' >"$1"
}
