# progress.sh: what the campaign says while it runs (sourced by
# rcutorture-campaign): on a terminal, one line on standard error,
# rewritten as runs end (done/total, failures, elapsed, ETA); otherwise a
# timestamped line per finished run.

PROGRESS_DONE=0 PROGRESS_FAILED=0 PROGRESS_LOST=0
declare -A RUN_DONE=()

# Seconds as 1h02m03s, 2m05s or 7s.
hms() { # seconds
	local s=$1
	if ((s >= 3600)); then
		printf '%dh%02dm%02ds' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
	elif ((s >= 60)); then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}

# Run I has ended (or is lost) on HOST: record it and say so.
run_finished() { # index host
	local i=$1 host=$2 v name=${RUN_NAME[$1]} elapsed eta left
	[[ -n ${RUN_DONE[$name]:-} ]] && return
	RUN_DONE[$name]=1
	run_record "$i" "$host"
	v=$(cat "$results/$name/verdict")
	PROGRESS_DONE=$((PROGRESS_DONE + 1))
	[[ $v == LOST || $v == NOT_RUN ]] && PROGRESS_LOST=$((PROGRESS_LOST + 1))
	[[ $v != "${RUN_EXPECT[i]}" && $v != LOST && $v != NOT_RUN ]] && PROGRESS_FAILED=$((PROGRESS_FAILED + 1))
	elapsed=$((SECONDS - PROGRESS_T0)) left=$((${#RUN_NAME[@]} - PROGRESS_DONE))
	eta=$((elapsed * left / PROGRESS_DONE))
	if [[ -t 2 ]]; then
		printf '\r\033[K%s: %d/%d runs done, %d failed, %d lost, %s elapsed, ETA %s' "$PROG" \
			"$PROGRESS_DONE" "${#RUN_NAME[@]}" "$PROGRESS_FAILED" "$PROGRESS_LOST" \
			"$(hms "$elapsed")" "$(hms "$eta")" >&2
		((left)) || echo >&2
	else
		printf '%s %s: [%d/%d] %s %s (expected %s) on %s; %d failed, %d lost so far, %s elapsed, ETA %s\n' \
			"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$PROG" "$PROGRESS_DONE" "${#RUN_NAME[@]}" "$name" "$v" \
			"${RUN_EXPECT[i]}" "$host" "$PROGRESS_FAILED" "$PROGRESS_LOST" "$(hms "$elapsed")" \
			"$(hms "$eta")" >&2
	fi
}
