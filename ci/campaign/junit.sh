# junit.sh: the campaign as JUnit XML and TAP (sourced by
# rcutorture-campaign), one test case per run: a run that did not end with
# its expected verdict fails, with its first failure line as the message
# and its console log attached.

# The failure message of run I: the report's First failure line (or what
# became of a lost run), with the verdict.
failure_message() { # index
	echo "${R_FIRSTLINE[$1]:-no First failure line} (verdict ${R_VERDICT[$1]}, expected ${RUN_EXPECT[$1]})"
}

# One tab-separated row per run for junit_xml.awk: name, class, seed,
# host, verdict, expected, milliseconds, failure message, folder.
junit_rows() {
	local i
	for i in "${!RUN_NAME[@]}"; do
		printf '%s\t' "${RUN_NAME[i]}" "rcutorture.${RUN_SCEN[i]##*/}" "${RUN_SEED[i]}" "${R_HOST[i]}" \
			"${R_VERDICT[i]}" "${RUN_EXPECT[i]}" "${R_MS[i]:-0}" "$(failure_message "$i")"
		printf '%s\n' "$results/${RUN_NAME[i]}"
	done
}

# junit.xml: one testsuite, one testcase per run; a failure (an error for
# a lost run) whose message is the First failure line and whose text is
# the command; the console log is the test case's system-out, after a
# [[ATTACHMENT|path]] line (Jenkins and GitLab show it as an attachment),
# standard error its system-err.  One awk does it all.
junit_write() { # file
	junit_rows | awk -F '\t' -v suite="${results##*/}" -v stamp="$STARTED" '
	function esc(s) {
		gsub(/[\001-\010\013\014\016-\037]/, "", s)
		gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
		gsub(/"/, "\\&quot;", s); gsub(/\047/, "\\&apos;", s)
		return s
	}
	function file(path,   line, out) {
		out = ""
		while ((getline line < path) > 0)
			out = out esc(line) "\n"
		close(path)
		return out
	}
	{
		row[NR] = $0
		if ($5 != $6) { if ($5 == "LOST" || $5 == "NOT_RUN") errors++; else failures++ }
	}
	END {
		print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
		printf "<testsuites name=\"rcutorture-campaign\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n", NR, failures, errors
		printf "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" timestamp=\"%s\">\n", esc(suite), NR, failures, errors, stamp
		for (n = 1; n <= NR; n++) {
			split(row[n], f, "\t")
			printf "<testcase classname=\"%s\" name=\"%s seed=%s host=%s\" time=\"%.3f\">\n", esc(f[2]), esc(f[1]), f[3], esc(f[4]), f[7] / 1000
			if (f[5] != f[6]) {
				tag = (f[5] == "LOST" || f[5] == "NOT_RUN") ? "error" : "failure"
				printf "<%s type=\"%s\" message=\"%s\">%s</%s>\n", tag, f[5], esc(f[8]), file(f[9] "/cmd"), tag
			}
			printf "<system-out>[[ATTACHMENT|%s/console.log]]\n%s</system-out>\n", esc(f[9]), file(f[9] "/console.log")
			printf "<system-err>%s</system-err>\n</testcase>\n", file(f[9] "/stderr.log")
		}
		print "</testsuite>"
		print "</testsuites>"
	}' >"$1"
}

# results.tap: TAP version 13, one test point per run; a failing point
# carries a YAML block with the message, verdicts, seed, host, the log's
# path and its last lines.
tap_write() { # file
	local i dir v e
	{
		echo 'TAP version 13'
		echo "1..${#RUN_NAME[@]}"
		for i in "${!RUN_NAME[@]}"; do
			dir=$results/${RUN_NAME[i]} v=${R_VERDICT[i]} e=${RUN_EXPECT[i]}
			if [[ $v == "$e" ]]; then
				echo "ok $((i + 1)) - ${RUN_NAME[i]} $v seed=${RUN_SEED[i]} host=${R_HOST[i]}"
				continue
			fi
			echo "not ok $((i + 1)) - ${RUN_NAME[i]} $v, expected $e seed=${RUN_SEED[i]} host=${R_HOST[i]}"
			echo '  ---'
			echo "  message: $(failure_message "$i" | jq -R .)"
			echo "  severity: $([[ $v == LOST || $v == NOT_RUN ]] && echo error || echo fail)"
			echo "  verdict: $v"
			echo "  expected: $e"
			echo "  seed: ${RUN_SEED[i]}"
			echo "  host: $(jq -R . <<<"${R_HOST[i]}")"
			echo "  log: $(jq -R . <<<"$dir/console.log")"
			if [[ -s $dir/console.log ]]; then
				echo '  log_tail: |'
				tail -n 40 "$dir/console.log" | tr -d '\000-\010\013\014\016-\037' | sed 's/^/    /'
			fi
			echo '  ...'
		done
	} >"$1"
}
