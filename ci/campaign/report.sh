# report.sh: each run's verdict and record, the campaign's summary table
# and summary.json (sourced by rcutorture-campaign).  What the reports
# need of a run is read once, when it ends (run_record), into arrays
# indexed by run: R_HOST, R_VERDICT, R_STATUS, R_VER, R_RATE, R_MS,
# R_FIRST (as the table shows it) and R_FIRSTLINE (the report's line).

R_HOST=() R_VERDICT=() R_STATUS=() R_VER=() R_RATE=() R_MS=() R_FIRST=() R_FIRSTLINE=()

# The verdict of a finished run, from its exit status and report; LOST
# when its host died while it ran, NOT_RUN when no host was left for it.
verdict_of() { # dir
	local st=missing
	[[ -e $1/lost ]] && { echo LOST; return; }
	[[ -e $1/not-run ]] && { echo NOT_RUN; return; }
	[[ -r $1/exit-status ]] && read -r st <"$1/exit-status"
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
	local line=
	if [[ -e $1/lost ]]; then
		read -r line <"$1/lost"
	elif [[ -e $1/not-run ]]; then
		read -r line <"$1/not-run"
	else
		line=$(grep -o 'First failure: .*' "$1/console.log" 2>/dev/null | tail -n 1 |
			sed 's/First failure: //; s/^at \([0-9.]*\) s, caught by: /\1 s: /')
	fi
	echo "$line"
}

# Write what the campaign knows of run I next to what run-job wrote (its
# host, seed, scenario, arguments one per line for --rerun, expected
# verdict and verdict) and keep what the reports need.
run_record() { # index host
	local i=$1 dir=$results/${RUN_NAME[$1]} facts
	mkdir -p "$dir"
	echo "$2" >"$dir/host"
	echo "${RUN_SEED[i]}" >"$dir/seed"
	echo "${RUN_SCEN[i]}" >"$dir/scenario"
	tr '\t' '\n' <<<"${RUN_ARGS[i]}" >"$dir/args"
	echo "${RUN_EXPECT[i]}" >"$dir/expected"
	R_HOST[i]=$2 R_VERDICT[i]=$(verdict_of "$dir") R_STATUS[i]= R_MS[i]=
	echo "${R_VERDICT[i]}" >"$dir/verdict"
	[[ -r $dir/exit-status ]] && read -r R_STATUS[i] <"$dir/exit-status"
	[[ -r $dir/elapsed-ms ]] && read -r R_MS[i] <"$dir/elapsed-ms"
	# The last ver: and GPs/s figures and First failure line, in one pass.
	facts=$(awk '{ for (k = 1; k < NF; k++) { if ($k == "ver:") v = $(k + 1); if ($k == "GPs/s:") r = $(k + 1) } }
		/First failure: / { f = $0; sub(/.*First failure: /, "First failure: ", f) }
		END { printf "%s\t%s\t%s\n", v, r, f }' "$dir/console.log" 2>/dev/null)
	IFS=$'\t' read -r R_VER[i] R_RATE[i] R_FIRSTLINE[i] <<<"$facts"
	if [[ -e $dir/lost || -e $dir/not-run ]]; then
		R_FIRST[i]=$(first_failure_of "$dir") R_FIRSTLINE[i]=${R_FIRST[i]}
	else
		R_FIRST[i]=${R_FIRSTLINE[i]#First failure: }
		[[ ${R_FIRST[i]} =~ ^at\ ([0-9.]+)\ s,\ caught\ by:\ (.*)$ ]] &&
			R_FIRST[i]="${BASH_REMATCH[1]} s: ${BASH_REMATCH[2]}"
	fi
}

# The summary table (stdout), one row per run, then the runs that did not
# end as expected and the hosts that died.  The seed and host columns are
# left out in the old runner's format (--batches).
summary_table() {
	local i v bad=()
	if ((COMPAT)); then
		printf '%-20s %-14s %-12s %10s %10s  %s\n' scenario verdict expected 'GPs (ver)' GPs/s 'first failure'
	else
		printf '%-20s %-14s %-12s %10s %10s %-20s %-16s %s\n' run verdict expected 'GPs (ver)' GPs/s seed host 'first failure'
	fi
	for i in "${!RUN_NAME[@]}"; do
		v=${R_VERDICT[i]}
		if ((COMPAT)); then
			printf '%-20s %-14s %-12s %10s %10s  %s\n' "${RUN_NAME[i]}" "$v" "${RUN_EXPECT[i]}" \
				"${R_VER[i]:--}" "${R_RATE[i]:--}" "${R_FIRST[i]:--}"
		else
			printf '%-20s %-14s %-12s %10s %10s %-20s %-16s %s\n' "${RUN_NAME[i]}" "$v" "${RUN_EXPECT[i]}" \
				"${R_VER[i]:--}" "${R_RATE[i]:--}" "${RUN_SEED[i]}" "${R_HOST[i]}" "${R_FIRST[i]:--}"
		fi
		[[ $v == "${RUN_EXPECT[i]}" ]] || bad+=("${RUN_NAME[i]} ($v, expected ${RUN_EXPECT[i]})")
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
			[[ ${R_VERDICT[i]} == LOST && ${R_HOST[i]} == "$h" ]] && runs+=("${RUN_NAME[i]}")
		done
		echo "host $h died during the campaign; runs lost with it: ${runs[*]:-none}; the runs it had not started went to the other hosts"
	done
}

# summary.json: the campaign, the counts and one object per run, from one
# tab-separated row per run read by a single jq.
summary_json() { # file
	local i
	for i in "${!RUN_NAME[@]}"; do
		printf '%s\t' "${RUN_NAME[i]}" "${RUN_SCEN[i]}" "${RUN_SEED[i]}" "${R_HOST[i]}" "${R_VERDICT[i]}" \
			"${RUN_EXPECT[i]}" "${R_STATUS[i]}" "${R_VER[i]}" "${RUN_CPUS[i]}" "${R_MS[i]}"
		printf '%s\n' "${R_FIRST[i]}"
	done | jq -R -s --arg dir "$results" --arg bin "$opt_bin" --arg started "$STARTED" \
		--arg ended "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --arg hosts "${opt_hosts:-}" \
		--arg dead "$(printf '%s\n' "${!DEAD_HOSTS[@]}")" '
		def num: if . == "" then null else tonumber end;
		[split("\n")[] | select(length > 0) | split("\t") |
		 {run: .[0], scenario: .[1], seed: (.[2] | tonumber), host: .[3], verdict: .[4],
		  expected: .[5], ok: (.[4] == .[5]), exit_status: (.[6] | num), gps: (.[7] | num),
		  cpus: (.[8] | tonumber), seconds: (if .[9] == "" then null else (.[9] | tonumber) / 1000 end),
		  first_failure: (if .[10] == "" or .[10] == "none" then null else .[10] end)}] |
		{campaign: $dir, bin: $bin, started: $started, ended: $ended,
		 hosts_file: (if $hosts == "" then null else $hosts end),
		 dead_hosts: ($dead | split("\n") | map(select(. != ""))),
		 counts: {runs: length, as_expected: (map(select(.ok)) | length),
			  unexpected: (map(select(.ok | not)) | length),
			  lost: (map(select(.verdict == "LOST" or .verdict == "NOT_RUN")) | length),
			  by_verdict: (group_by(.verdict) | map({(.[0].verdict): length}) | add // {})},
		 runs: .}' >"$1"
}
