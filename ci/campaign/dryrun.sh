# dryrun.sh: --dryrun (sourced by rcutorture-campaign): print the plan,
# which run starts when on which host with which seed and command, and
# how the runs pack onto the CPUs, from each run's duration, without
# running anything.

# One row of the plan.
dry_row() { # start-seconds index where
	local i=$2
	printf '%-8s %-20s %-20s %4s  %-14s timeout -k 10 %s %s %s --json %s/run.json\n' "+$(hms "$1")" \
		"${RUN_NAME[i]}" "${RUN_SEED[i]}" "${RUN_CPUS[i]}" "$3" "${RUN_BOUND[i]}" "$opt_bin" \
		"$(tr '\t' ' ' <<<"${RUN_ARGS[i]}")" "${RUN_NAME[i]}"
}

# The local pool, simulated: the same first-fit order as pool_run, each
# run taking its duration.
dry_pool() {
	local -a waiting ends=() weights=()
	local t=0 free=$POOL_CAP k i w next
	mapfile -t waiting < <(pool_order)
	while ((${#waiting[@]} || ${#ends[@]})); do
		for k in "${!waiting[@]}"; do
			i=${waiting[k]} w=$(pool_weight "${waiting[k]}")
			((w <= free)) || continue
			dry_row "$t" "$i" "local $((POOL_CAP - free + 1))-$((POOL_CAP - free + w))/$POOL_CAP"
			ends+=($((t + RUN_SECS[i]))) weights+=("$w") free=$((free - w))
			unset 'waiting[k]'
		done
		waiting=("${waiting[@]}")
		next=$(printf '%s\n' "${ends[@]}" | sort -n | head -n 1)
		t=$next
		for k in "${!ends[@]}"; do
			((ends[k] == t)) || continue
			free=$((free + weights[k]))
			unset 'ends[k]' 'weights[k]'
		done
	done
	DRY_WALL=$t
}

# The lock-step batches, simulated: each lasts as long as its longest run.
dry_batches() {
	local t=0 i j n=${#RUN_NAME[@]} longest
	for ((i = 0; i < n; i += POOL_CAP)); do
		longest=0
		for ((j = i; j < i + POOL_CAP && j < n; j++)); do
			dry_row "$t" "$j" "local batch $((i / POOL_CAP + 1))"
			((RUN_SECS[j] > longest)) && longest=${RUN_SECS[j]}
		done
		t=$((t + longest))
	done
	DRY_WALL=$t
}

# The hosts, simulated as parallel fills their job slots: each run in
# plan order to the slot that frees first.  A host without a job count
# gets its CPU count from parallel at the start: one slot is assumed here.
dry_hosts() {
	local -a slot_host=() slot_free=()
	local h n k i best
	for h in "${HOSTS[@]}"; do
		n=${HOST_SLOTS[$h]:-1}
		for ((k = 0; k < n; k++)); do slot_host+=("$h") slot_free+=(0); done
	done
	for i in "${!RUN_NAME[@]}"; do
		best=0
		for k in "${!slot_free[@]}"; do
			((slot_free[k] < slot_free[best])) && best=$k
		done
		dry_row "${slot_free[best]}" "$i" "${slot_host[best]}"
		slot_free[best]=$((slot_free[best] + RUN_SECS[i]))
	done
	DRY_WALL=$(printf '%s\n' "${slot_free[@]}" | sort -n | tail -n 1)
}

# The whole plan on standard output.
dry_print() {
	local h
	if [[ -n $opt_hosts ]]; then
		echo "$PROG: plan of ${#RUN_NAME[@]} runs of $opt_bin on ${#HOSTS[@]} hosts through GNU parallel ($opt_hosts):"
		for h in "${HOSTS[@]}"; do
			if [[ -n ${HOST_SLOTS[$h]} ]]; then
				echo "  host $h: ${HOST_SLOTS[$h]} job slots"
			else
				echo "  host $h: one job slot per CPU (parallel asks the host; 1 assumed below)"
			fi
		done
		echo "  shipped once per host: the binary, run-job, the plan, the scenario files and files named by arguments"
	elif ((opt_batches)); then
		echo "$PROG: plan of ${#RUN_NAME[@]} runs of $opt_bin on this machine in lock-step batches of $POOL_CAP"
	elif [[ -n $opt_jobs ]]; then
		echo "$PROG: plan of ${#RUN_NAME[@]} runs of $opt_bin on this machine, a pool of $POOL_CAP runs at once"
	else
		echo "$PROG: plan of ${#RUN_NAME[@]} runs of $opt_bin on this machine, packed onto its $POOL_CAP CPUs by each run's --cpus"
	fi
	printf '%-8s %-20s %-20s %4s  %-14s %s\n' start run seed cpus where command
	if [[ -n $opt_hosts ]]; then
		dry_hosts
	elif ((opt_batches)); then
		dry_batches
	else
		dry_pool
	fi
	echo "estimated wall time: $(hms "$DRY_WALL") (from the runs' durations; each may take up to its time limit)"
}
