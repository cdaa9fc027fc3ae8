# junit.sh: the campaign as JUnit XML and TAP (sourced by
# rcutorture-campaign), one test case per run: a run that did not end with
# its expected verdict fails, with its first failure line as the message
# and its console log attached.

# Text made safe for XML: no control characters XML 1.0 forbids, and the
# markup characters escaped (quotes too, for attributes).
xml_escape() {
	tr -d '\000-\010\013\014\016-\037' | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' \
		-e 's/"/\&quot;/g' -e "s/'/\&apos;/g"
}

# The failure message of run directory DIR: the report's First failure
# line, else what the verdict says.
failure_message() { # dir verdict expected
	local line
	line=$(grep -o 'First failure: .*' "$1/console.log" 2>/dev/null | tail -n 1)
	[[ -e $1/lost ]] && line=$(cat "$1/lost")
	[[ -e $1/not-run ]] && line=$(cat "$1/not-run")
	echo "${line:-no First failure line} (verdict $2, expected $3)"
}

# junit.xml: one testsuite, one testcase per run; the console log is the
# test case's system-out (with a [[ATTACHMENT|...]] line, which Jenkins
# and GitLab show as a link), standard error its system-err.
junit_write() { # file
	local i dir v e n=${#RUN_NAME[@]} failures=0 errors=0 secs
	for i in "${!RUN_NAME[@]}"; do
		v=$(cat "$results/${RUN_NAME[i]}/verdict")
		case $v in
		"${RUN_EXPECT[i]}") ;;
		LOST | NOT_RUN) errors=$((errors + 1)) ;;
		*) failures=$((failures + 1)) ;;
		esac
	done
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		printf '<testsuites name="rcutorture-campaign" tests="%d" failures="%d" errors="%d">\n' "$n" "$failures" "$errors"
		printf '<testsuite name="%s" tests="%d" failures="%d" errors="%d" timestamp="%s">\n' \
			"$(xml_escape <<<"${results##*/}")" "$n" "$failures" "$errors" "$STARTED"
		for i in "${!RUN_NAME[@]}"; do
			dir=$results/${RUN_NAME[i]}
			v=$(cat "$dir/verdict") e=${RUN_EXPECT[i]}
			secs=$(awk '{printf "%.3f", $1 / 1000}' "$dir/elapsed-ms" 2>/dev/null)
			printf '<testcase classname="rcutorture.%s" name="%s seed=%s host=%s" time="%s">\n' \
				"$(xml_escape <<<"${RUN_SCEN[i]##*/}")" "$(xml_escape <<<"${RUN_NAME[i]}")" \
				"${RUN_SEED[i]}" "$(xml_escape <"$dir/host")" "${secs:-0}"
			if [[ $v != "$e" ]]; then
				local tag=failure
				[[ $v == LOST || $v == NOT_RUN ]] && tag=error
				printf '<%s type="%s" message="%s">%s</%s>\n' "$tag" "$v" \
					"$(failure_message "$dir" "$v" "$e" | xml_escape)" \
					"$(cat "$dir/cmd" 2>/dev/null | xml_escape)" "$tag"
			fi
			printf '<system-out>[[ATTACHMENT|%s]]\n' "$(xml_escape <<<"$dir/console.log")"
			cat "$dir/console.log" 2>/dev/null | xml_escape
			printf '</system-out>\n<system-err>'
			cat "$dir/stderr.log" 2>/dev/null | xml_escape
			printf '</system-err>\n</testcase>\n'
		done
		echo '</testsuite>'
		echo '</testsuites>'
	} >"$1"
}

# results.tap: TAP version 13, one test point per run; a failing point
# carries a YAML block with the message, verdicts, seed, host, the log's
# path and its last lines.
tap_write() { # file
	local i dir v e n=${#RUN_NAME[@]}
	{
		echo 'TAP version 13'
		echo "1..$n"
		for i in "${!RUN_NAME[@]}"; do
			dir=$results/${RUN_NAME[i]}
			v=$(cat "$dir/verdict") e=${RUN_EXPECT[i]}
			if [[ $v == "$e" ]]; then
				echo "ok $((i + 1)) - ${RUN_NAME[i]} $v seed=${RUN_SEED[i]} host=$(cat "$dir/host")"
				continue
			fi
			echo "not ok $((i + 1)) - ${RUN_NAME[i]} $v, expected $e seed=${RUN_SEED[i]} host=$(cat "$dir/host")"
			echo '  ---'
			echo "  message: $(failure_message "$dir" "$v" "$e" | jq -R .)"
			echo "  severity: $([[ $v == LOST || $v == NOT_RUN ]] && echo error || echo fail)"
			echo "  verdict: $v"
			echo "  expected: $e"
			echo "  seed: ${RUN_SEED[i]}"
			echo "  host: $(cat "$dir/host" | jq -R .)"
			echo "  log: $(jq -R . <<<"$dir/console.log")"
			if [[ -s $dir/console.log ]]; then
				echo '  log_tail: |'
				tail -n 40 "$dir/console.log" | tr -d '\000-\010\013\014\016-\037' | sed 's/^/    /'
			fi
			echo '  ...'
		done
	} >"$1"
}
