# hosts.sh: running the plan on many hosts through GNU parallel (sourced
# by rcutorture-campaign).  parallel schedules the runs over the hosts of
# an sshlogin file, ships the binary, run-job, the plan, the scenarios and
# any plugin named in the arguments once per host (--basefile) and brings
# each run's folder back (--return, as a tar file); this file only checks
# the hosts, stages the files and reads what came back.

HOSTS=()                  # the sshlogins, without their job counts
declare -A HOST_SLOTS=()  # sshlogin -> its job count in the file ("" if none)
declare -A HOST_LINE=()   # sshlogin -> its line in the file, for parallel
declare -A DEAD_HOSTS=()  # sshlogin -> 1 once one of its ssh sessions died

# Read and check the hosts file: one sshlogin per line, [N/][user@]host
# or N/: (this machine), blank lines and # comments allowed.
hosts_read() { # file
	local file=$1 line n=0 slots login
	[[ -f $file && -r $file ]] || usage_error "--hosts: cannot read '$file'"
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		line=${line%%#*}
		line=$(sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$line")
		[[ -z $line ]] && continue
		[[ $line =~ ^(([1-9][0-9]*)/)?(([A-Za-z0-9._-]+@)?[A-Za-z0-9][A-Za-z0-9._-]*|:)$ ]] ||
			usage_error "--hosts: $file:$n: '$line' is not an sshlogin; expected [N/][user@]host (N: its job count) or N/: for this machine"
		slots=${BASH_REMATCH[2]} login=${BASH_REMATCH[3]}
		[[ -z ${HOST_LINE[$login]:-} ]] || usage_error "--hosts: $file:$n: '$login' is listed twice"
		HOSTS+=("$login") HOST_SLOTS[$login]=$slots HOST_LINE[$login]=$line
	done <"$file"
	((${#HOSTS[@]})) || usage_error "--hosts: '$file' names no host"
}

# The sshlogin file parallel reads: the hosts not known to be dead.
hosts_slf() { # file
	local h
	for h in "${HOSTS[@]}"; do
		[[ -n ${DEAD_HOSTS[$h]:-} ]] || echo "${HOST_LINE[$h]}"
	done >"$1"
}

# Every host must answer (through parallel, with the same ssh) and have
# the tools run-job needs, before anything is shipped or run.
hosts_preflight() {
	local slf=$TMPD/preflight.slf out h err
	hosts_slf "$slf"
	out=$(parallel --nonall --tag --slf "$slf" --ssh "$opt_ssh" --timeout 60 \
		'for t in bash tar timeout rsync; do command -v $t >/dev/null || echo "rcut-missing $t"; done; echo rcut-ok' 2>&1)
	for h in "${HOSTS[@]}"; do
		[[ $h == : ]] && continue
		if ! grep -q "^$h"$'\t'"rcut-ok$" <<<"$out"; then
			err=$(grep "^$h"$'\t' <<<"$out" | cut -f2- | tail -n 1)
			usage_error "--hosts: cannot reach host '$h' with '$opt_ssh': ${err:-no answer}"
		fi
		err=$(grep "^$h"$'\t'"rcut-missing " <<<"$out" | head -n 1 | cut -d' ' -f2)
		[[ -z $err ]] || usage_error "--hosts: host '$h' has no '$err' (run-job needs bash, tar, timeout and rsync)"
	done
}

# A file named by an argument, as it will be on the hosts.
ship_file() { # path
	local base=${1##*/} prev
	prev=${SHIPPED[$base]:-}
	[[ -z $prev || $prev == "$1" ]] || usage_error "--hosts: two files named '$base' ($prev, $1) cannot both be shipped"
	SHIPPED[$base]=$1
	cp "$1" "$results/.ship/files/$base" || usage_error "--hosts: cannot copy '$1'"
	echo ".ship/files/$base"
}

# Stage what goes to every host in RESULTS/.ship: the binary, run-job,
# the scenario files (found by name there), plugins and other files named
# by arguments (rewritten to their shipped paths) and the plan.
hosts_stage() {
	local i a out args k base
	declare -gA SHIPPED=()
	mkdir -p "$results/.ship/scenarios" "$results/.ship/files"
	cp "$opt_bin" "$results/.ship/rcutorture" && cp "$LIBDIR/run-job" "$results/.ship/run-job" ||
		usage_error "--hosts: cannot stage the binary in $results/.ship"
	for i in "${!RUN_NAME[@]}"; do
		base=${RUN_SFILE[i]##*/}
		[[ -e $results/.ship/scenarios/$base ]] && ! cmp -s "${RUN_SFILE[i]}" "$results/.ship/scenarios/$base" &&
			usage_error "--hosts: two scenario files named '$base' cannot both be shipped"
		cp "${RUN_SFILE[i]}" "$results/.ship/scenarios/$base"
		IFS=$'\t' read -r -a args <<<"${RUN_ARGS[i]}"
		out=()
		for ((k = 0; k < ${#args[@]}; k++)); do
			a=${args[k]}
			if [[ $a == --scenario ]]; then
				out+=("$a" "$base") && k=$((k + 1))
			elif [[ -f $a ]]; then
				out+=("$(ship_file "$a")")
			elif [[ $a == --*=* && -f ${a#*=} ]]; then
				out+=("${a%%=*}=$(ship_file "${a#*=}")")
			else
				out+=("$a")
			fi
		done
		(IFS=$'\t' && printf '%s\t%s\t%s\n' "${RUN_NAME[i]}" "${RUN_BOUND[i]}" "${out[*]}")
	done >"$results/.ship/plan"
}

# One pass of parallel over the live hosts for the runs in RUNS (names,
# one a line).  What the jobs print and parallel's job log (on standard
# output too) go to hosts_monitor, in this shell so that it can record;
# parallel's own messages go to .parallel.log.
hosts_pass() { # pass runs-file
	local slf=$results/.hosts.$1 bf=() f -
	set +f
	hosts_slf "$slf"
	for f in "$results"/.ship/rcutorture "$results"/.ship/run-job "$results"/.ship/plan \
		"$results"/.ship/scenarios/* "$results"/.ship/files/*; do
		[[ -f $f ]] && bf+=(--basefile "${f#"$results/"}")
	done
	: >"$results/.joblog.$1"
	hosts_monitor "$1" "$slf" < <(cd "$results" && parallel --slf "$slf" --ssh "$opt_ssh" \
		--workdir "$WORKDIR" "${bf[@]}" --return '{}.tar' --cleanup --joblog - \
		bash .ship/run-job .ship/plan '{}' .ship/rcutorture pack :::: "$2" 2>>.parallel.log)
	wait $! 2>/dev/null
}

# Read the jobs' lines as parallel prints them: note which runs started,
# unpack and record each finished one, keep the job log, and take a host
# whose ssh failed (exit 255) out of the sshlogin file at once: parallel
# reads the file again when its time stamp moves on by more than a
# second, and then starts no more runs there.
hosts_monitor() { # pass slf
	local line tag run st login f host bump=0
	while IFS= read -r line; do
		case $line in
		rcut-started\ *) read -r tag run <<<"$line" && RUN_STARTED[$run]=1 ;;
		rcut-done\ *)
			read -r tag run st login <<<"$line"
			[[ -f $results/$run.tar ]] || continue
			tar -xf "$results/$run.tar" -C "$results" && rm -f "$results/$run.tar"
			run_finished "${RUN_INDEX[$run]}" "$login"
			;;
		Seq$'\t'* | [0-9]*$'\t'*)
			echo "$line" >>"$results/.joblog.$1"
			IFS=$'\t' read -r -a f <<<"$line"
			host=${f[1]} st=${f[6]}
			if [[ $st == 255 && -z ${DEAD_HOSTS[$host]:-} ]]; then
				DEAD_HOSTS[$host]=1
				hosts_slf "$2"
				touch -d "@$(($(date +%s) + 10 * ++bump))" "$2"
			fi
			;;
		esac
	done
}

# After a pass, for each of its runs without a result: lost if it had
# started (its host died under it, or its result did not come back) or
# run-job failed on its host, else (its host's ssh failed before it
# started, or parallel never gave it a host) printed, for the next pass.
hosts_after_pass() { # pass runs-file
	local run row st host
	while read -r run; do
		[[ -n ${RUN_DONE[$run]:-} ]] && continue
		row=$(awk -F '\t' -v r=" $run " 'index($9, r) { print $7 "\t" $2 }' "$results/.joblog.$1" | tail -n 1)
		st=${row%%$'\t'*} host=${row#*$'\t'}
		[[ $st == 255 ]] && DEAD_HOSTS[$host]=1
		if [[ -n ${RUN_STARTED[$run]:-} || ( -n $st && $st != 255 ) ]]; then
			mkdir -p "$results/$run"
			if [[ $st == 255 ]]; then
				echo "host $host died while the run ran (ssh exit 255)" >"$results/$run/lost"
			else
				echo "its results did not come back from $host (job exit ${st:-unknown}, see .parallel.log)" >"$results/$run/lost"
			fi
			run_finished "${RUN_INDEX[$run]}" "$host"
		else
			echo "$run"
		fi
	done <"$2"
}

# The whole campaign over the hosts: passes until every run has a result;
# when no host is left, or a pass neither finished a run nor lost a host
# (parallel gave up), the runs left are NOT_RUN.
hosts_run() {
	local pass=1 runs=$results/.runs.1 i left h alive before why
	declare -gA RUN_STARTED=() RUN_INDEX=()
	for i in "${!RUN_NAME[@]}"; do
		RUN_INDEX[${RUN_NAME[i]}]=$i
		echo "${RUN_NAME[i]}"
	done >"$runs"
	while [[ -s $runs ]]; do
		before="$PROGRESS_DONE ${#DEAD_HOSTS[@]}"
		hosts_pass "$pass" "$runs"
		hosts_after_pass "$pass" "$runs" >"$results/.runs.$((pass + 1))"
		pass=$((pass + 1)) runs=$results/.runs.$pass
		alive=0 why=
		for h in "${HOSTS[@]}"; do [[ -n ${DEAD_HOSTS[$h]:-} ]] || alive=1; done
		((alive)) || why="no host was left to run it"
		[[ $before != "$PROGRESS_DONE ${#DEAD_HOSTS[@]}" ]] || why="parallel did not run it (see .parallel.log)"
		[[ -z $why ]] && continue
		while read -r left; do
			mkdir -p "$results/$left"
			echo "$why" >"$results/$left/not-run"
			run_finished "${RUN_INDEX[$left]}" none
		done <"$runs"
		break
	done
}
