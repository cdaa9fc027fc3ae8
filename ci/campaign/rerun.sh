# rerun.sh: --rerun DIR[/RUN] (sourced by rcutorture-campaign), the job of
# kvm-again.sh: run a campaign's runs, or one of them, again --repeat times
# with the seed and arguments they were run with, and say how often each
# ended with the verdict it had.

RERUN_OF=()   # run index -> the original run's folder

# The original run folders PATH names: itself if it is a run (it has the
# args file the campaign writes), else the runs of the campaign folder.
rerun_sources() { # path
	local d -
	set +f
	if [[ -f $1/args && -f $1/seed ]]; then
		(cd "$1" && pwd)
		return
	fi
	for d in "$1"/*/; do
		[[ -f $d/args && -f $d/seed ]] && (cd "$d" && pwd)
	done
}

# The plan: each original run --repeat times, as RUN.r1, RUN.r2, ...
rerun_plan() { # path
	local src r args name
	[[ -d $1 ]] || usage_error "--rerun: '$1' is not a folder"
	mapfile -t src < <(rerun_sources "$1")
	((${#src[@]})) || usage_error "--rerun: '$1' is neither a campaign's results folder nor one of its runs"
	for d in "${src[@]}"; do
		mapfile -t args <"$d/args"
		name=${d##*/}
		for ((r = 1; r <= opt_repeat; r++)); do
			plan_add "$name.r$r" "$(cat "$d/scenario")" "$(cat "$d/seed")" "${args[@]}"
			RERUN_OF+=("$d")
		done
	done
}

# After the reruns: one line per original run, how often its verdict came
# back (and which verdicts the reruns had); also in RESULTS/reproduced.
rerun_report() {
	local d i orig first n k line
	declare -A seen=()
	for d in "${RERUN_OF[@]}"; do
		[[ -n ${seen[$d]:-} ]] && continue
		seen[$d]=1
		orig=$(cat "$d/verdict" 2>/dev/null || verdict_of "$d")
		first=$(first_failure_of "$d")
		[[ $first == none ]] && first=
		n=0 k=0
		declare -A got=()
		for i in "${!RUN_NAME[@]}"; do
			[[ ${RERUN_OF[i]} == "$d" ]] || continue
			v=$(cat "$results/${RUN_NAME[i]}/verdict")
			n=$((n + 1))
			[[ $v == "$orig" ]] && k=$((k + 1))
			got[$v]=$((${got[$v]:-0} + 1))
		done
		line="rerun of $d ($orig${first:+, first failure $first}, seed $(cat "$d/seed")): reproduced $k of $n times ("
		for v in "${!got[@]}"; do line+="$v ${got[$v]}, "; done
		echo "${line%, })"
		unset got
	done | tee "$results/reproduced"
}
