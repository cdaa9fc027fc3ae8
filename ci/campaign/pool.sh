# pool.sh: running the plan on this machine (sourced by
# rcutorture-campaign): a job pool that starts the next run as soon as one
# ends, or the old lock-step batches (--batches).

# Run I with run-job (in the background), its folder in the results.
pool_start() { # index
	RCUT_RESULTS=$results exec bash "$LIBDIR/run-job" "$results/.plan" "${RUN_NAME[$1]}" "$opt_bin" >/dev/null
}

# How much of the pool run I takes: one slot with -j N, else its simulated
# CPUs, at most the whole machine (so that every run fits alone).
pool_weight() { # index
	if [[ -n $opt_jobs ]]; then
		echo 1
	elif ((RUN_CPUS[$1] > POOL_CAP)); then
		echo "$POOL_CAP"
	else
		echo "${RUN_CPUS[$1]}"
	fi
}

# The order runs are offered to the pool: the most CPUs first (as kvm.sh
# packs its batches), plan order among equals.
pool_order() {
	local i
	for i in "${!RUN_NAME[@]}"; do
		printf '%s %s\n' "$(pool_weight "$i")" "$i"
	done | sort -s -k1,1nr | awk '{print $2}'
}

# The pool: whenever runs end, start every waiting run that fits in the
# free CPUs (or slots), the first in pool_order first.
pool_run() {
	local -a waiting
	local -A running=() weight=()
	local free=$POOL_CAP i k pid w
	mapfile -t waiting < <(pool_order)
	while ((${#waiting[@]} || ${#running[@]})); do
		for k in "${!waiting[@]}"; do
			i=${waiting[k]} w=$(pool_weight "${waiting[k]}")
			((w <= free)) || continue
			(pool_start "$i") &
			running[$!]=$i weight[$!]=$w
			free=$((free - w))
			unset 'waiting[k]'
		done
		waiting=("${waiting[@]}")
		wait -n -p pid "${!running[@]}"
		[[ -n ${running[$pid]:-} ]] || continue
		free=$((free + weight[$pid]))
		run_finished "${running[$pid]}" local
		unset "running[$pid]" "weight[$pid]"
	done
}

# The old runner's lock-step batches of --jobs runs: each batch starts
# when the previous one has ended completely.
batches_run() {
	local i j n=${#RUN_NAME[@]}
	for ((i = 0; i < n; i += POOL_CAP)); do
		echo "--- batch $((i / POOL_CAP + 1)): ${RUN_NAME[*]:i:POOL_CAP}"
		for ((j = i; j < i + POOL_CAP && j < n; j++)); do
			(pool_start "$j") &
		done
		wait
		for ((j = i; j < i + POOL_CAP && j < n; j++)); do
			run_finished "$j" local
		done
	done
}
