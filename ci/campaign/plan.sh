# plan.sh: the campaign's plan (sourced by rcutorture-campaign).  One run
# per scenario copy and seed, each with its rcutorture arguments, expected
# verdict, simulated CPUs and time limit, read from a dry run of the binary.
#
# The plan is kept in arrays indexed by run: RUN_NAME (its results folder),
# RUN_SCEN (the scenario as given), RUN_SEED, RUN_ARGS (the rcutorture
# arguments without --json, tab-separated), RUN_EXPECT, RUN_CPUS, RUN_SECS
# (its duration, whole seconds), RUN_SFILE and RUN_BOUND (its time limit: the
# duration plus two stall timeouts plus 60 s, as the old runner's).

RUN_NAME=() RUN_SCEN=() RUN_SEED=() RUN_ARGS=() RUN_EXPECT=() RUN_CPUS=() RUN_SECS=() RUN_BOUND=()
RUN_SFILE=() # the scenario file the binary read, for shipping to hosts
declare -A PLAN_SEEN=()

# A DURATION as rcutorture prints it (1.5s, 200ms, 100us, 7ns, 2m, 1h, 1d)
# in whole seconds, rounded up; an unknown unit is an error, not seconds.
seconds() {
	awk -v d="$1" 'BEGIN {
		n = d + 0; u = d; sub(/^[0-9.]+/, "", u)
		split("ns us ms s m h d", name, " ")
		split("1e-9 1e-6 0.001 1 60 3600 86400", size, " ")
		for (i = 1; i <= 7; i++)
			if (u == name[i] || (u == "" && i == 4)) {
				x = n * size[i]; s = int(x); if (s < x) s++
				printf "%d\n", s
				exit 0
			}
		exit 1
	}'
}

# Add one run: NAME (made unique as NAME, NAME.2, ...), its scenario, seed
# and rcutorture arguments.
plan_add() { # name scenario seed args...
	local base=$1 scen=$2 seed=$3 arg
	shift 3
	for arg in "$@"; do
		[[ $arg != *[$'\t\n']* ]] || usage_error "argument '$arg' has a tab or newline"
	done
	PLAN_SEEN[$base]=$((${PLAN_SEEN[$base]:-0} + 1))
	local n=${PLAN_SEEN[$base]}
	RUN_NAME+=("$base$( ((n > 1)) && echo ".$n")")
	RUN_SCEN+=("$scen") RUN_SEED+=("$seed")
	local IFS=$'\t'
	RUN_ARGS+=("$*")
}

# Expand the scenario words (N*NAME runs NAME N times) into runs, each
# copy of a scenario with --seeds seeds: BASE + k for its k-th run.
plan_from_words() { # words...
	local w n name k s base
	declare -A copies=()
	for w in "$@"; do
		n=1 name=$w
		if [[ $w =~ ^([0-9]+)\*(.+)$ ]]; then
			n=$((10#${BASH_REMATCH[1]})) name=${BASH_REMATCH[2]}
			((n >= 1)) || usage_error "'$w': the repeat count must be at least 1"
		fi
		base=${name##*/}
		for ((k = 0; k < n; k++)); do
			for ((s = 0; s < opt_seeds; s++)); do
				local seed=$((opt_seed + ${copies[$base]:-0}))
				copies[$base]=$((${copies[$base]:-0} + 1))
				plan_add "$base" "$name" "$seed" --scenario "$name" --seed "$seed" \
					${opt_duration:+--duration "$opt_duration"} "${PASS_ARGS[@]}"
			done
		done
	done
}

# Learn each run's expected verdict, simulated CPUs and time limit from a
# dry run with its arguments (once per distinct arguments but the seed);
# a scenario or argument rcutorture rejects is a usage error.
plan_probe() {
	declare -A cache=()
	local i out key d st c e f args
	for i in "${!RUN_NAME[@]}"; do
		key=${RUN_ARGS[i]/--seed$'\t'${RUN_SEED[i]}/}
		if [[ -z ${cache[$key]:-} ]]; then
			IFS=$'\t' read -r -a args <<<"${RUN_ARGS[i]}"
			out=$("$opt_bin" "${args[@]}" --dry-run 2>&1) ||
				usage_error "scenario ${RUN_SCEN[i]}: $(tail -n 1 <<<"$out")"
			e=$(sed -n 's/.*scenario .* from .*, expected verdict \([A-Z_]*\)$/\1/p' <<<"$out")
			d=$(grep -o ' duration=[^ ]*' <<<"$out" | head -n 1 | cut -d= -f2)
			st=$(grep -o ' stall_timeout=[^ ]*' <<<"$out" | head -n 1 | cut -d= -f2)
			c=$(grep -o ' cpus=[0-9]*' <<<"$out" | head -n 1 | cut -d= -f2)
			f=$(sed -n 's/.*scenario .* from \(.*\), expected verdict [A-Z_]*$/\1/p' <<<"$out")
			[[ -n $e && -n $d && -n $st && -n $c && -n $f ]] ||
				usage_error "scenario ${RUN_SCEN[i]}: cannot read the dry run of $opt_bin"
			d=$(seconds "$d") && st=$(seconds "$st") ||
				usage_error "scenario ${RUN_SCEN[i]}: cannot read duration or stall_timeout in the dry run of $opt_bin"
			((d > 0)) || usage_error "scenario ${RUN_SCEN[i]} runs until interrupted (duration 0); give --duration"
			cache[$key]="$e $c $d $((d + 2 * st + 60)) $f"
		fi
		read -r RUN_EXPECT[i] RUN_CPUS[i] RUN_SECS[i] RUN_BOUND[i] RUN_SFILE[i] <<<"${cache[$key]}"
	done
}

# The plan file run-job reads: NAME, time limit, arguments, tab-separated.
plan_write() { # file
	local i
	for i in "${!RUN_NAME[@]}"; do
		printf '%s\t%s\t%s\n' "${RUN_NAME[i]}" "${RUN_BOUND[i]}" "${RUN_ARGS[i]}"
	done >"$1"
}
