# Integration tests: the kernel's rcutorture scripts read our output as
# they read a kernel console log (issue 13 item 9).  The scripts are GPL
# and are not shipped here; each test applies the exact patterns and
# field numbers of the script lines it names, from
# tools/testing/selftests/rcutorture/bin/ in torvalds/linux:
#   parse-console.sh       the FAILURE check, the ver: sequence check and
#                          the stall counter (n_stalls)
#   kvm-recheck-rcu.sh     ngps, stopstate, fwdprog
#   kvm-recheck-rcuscale.sh  the "Grace periods:" line

# parse-console.sh's console lines: it strips a "[timestamp] " first.
console_lines() { # regex
	grep --binary-files=text -E -- "$1" "$OUT" | sed -e 's/^\[[^]]*] //'
}

# A STALL run is counted by parse-console.sh's stall counter, not read as
# a FAILURE.  Before: "busted-hang-torture: STALL at ..." made
# parse-console.sh print "FAILURE, N instances" and count no stall.
t_parse_console_counts_a_stall() {
	run --scenario BUSTED-HANG --duration 30 --stat-interval 0
	expect_status 4
	# parse-console.sh: if grep -q FAILURE $file || grep -q -e '-torture.*!!!' $file
	! grep -q FAILURE "$OUT" || die "a STALL run prints FAILURE: $(grep -m1 FAILURE "$OUT")"
	! grep -q -e '-torture.*!!!' "$OUT" || die "a STALL run has a '-torture.*!!!' line: $(grep -m1 -e '-torture.*!!!' "$OUT")"
	# parse-console.sh: n_stalls=`grep -E -c 'detected stalls on CPUs/tasks:|self-detected stall on CPU|Stall ended before state dump start|\?\?\? Writer stall state' $file`
	local n=$(grep -E -c 'detected stalls on CPUs/tasks:|self-detected stall on CPU|Stall ended before state dump start|\?\?\? Writer stall state' "$OUT")
	((n == 1)) || die "parse-console.sh would count $n stalls, expected 1"
}

# parse-console.sh's sequence check, as its awk applies it to the lines
# of grep 'torture:.*ver:' (after dropping '(null)' and all-zero rtc
# lines): field 5 (the ver: value) must be a number and grow strictly
# from one line to the next, else it warns "BAD SEQ" (or "GP HANG").
expect_ver_grows() {
	console_lines 'torture:.*ver:' | grep -E -v '\(null\)|rtc: 000000000* ' |
		awk '{ if ($5 + 0 != $5 || $5 <= v) { print "ver " v " then " $5 " at line " NR; exit 1 } v = $5 }' ||
		die "parse-console.sh would warn BAD SEQ"
}

# A --stutter 2s --stat-interval 500ms run that ends SUCCESS passes the
# sequence check: a block that would repeat ver while the stutter holds
# the writer waits until it moves.  Before, blocks in each pause repeated
# the same ver (BAD SEQ).
t_parse_console_no_bad_seq_under_stutter() {
	run --stutter 2s --stat-interval 500ms --duration 6 --nfakewriters 1 --fwd-progress 0 --read-exit-burst 0
	expect_status 0
	expect_out 'End of test: SUCCESS'
	local blocks=$(grep -c 'torture: rtc:' "$OUT")
	((blocks >= 4)) || die "only $blocks stats blocks in 6 s"
	expect_ver_grows
}

# kvm-recheck-rcu.sh's summary line: ngps, the End-test grace-period
# state and the forward-progress n_max_cbs (none of which it found
# before: no 'End-test grace-period state' line, no
# 'rcu_torture_fwd_prog_cr Duration' line).
t_kvm_recheck_rcu_summary_lines() {
	run --duration 2.5 --fwd-progress-holdoff 1s --stat-interval 0
	expect_status 0
	# ngps=`grep ver: $i/console.log | tail -1 | sed -e 's/^.* ver: //' -e 's/ .*$//'`
	local ngps=$(grep ver: "$OUT" | tail -1 | sed -e 's/^.* ver: //' -e 's/ .*$//')
	[[ $ngps =~ ^[1-9][0-9]*$ ]] || die "ngps '$ngps'"
	# stopstate: grep 'End-test grace-period state: g' | tail -1 | awk '{ print "[" $1 " " $5 " " $6 " " $7 "]"; }'
	local stop=$(console_lines 'End-test grace-period state: g' | tail -1 | awk '{ print "[" $1 " " $5 " " $6 " " $7 "]"; }')
	[[ $stop =~ ^\[memb-torture:\ g[0-9]+\ f0x0\ total-gps=[0-9]+\]$ ]] || die "stopstate '$stop'"
	expect_out '^memb-torture: Start-test grace-period state: g[0-9]+ f0x0$'
	# fwdprog: grep 'rcu_torture_fwd_prog_cr Duration' | sort -k15nr | head -1 | awk '{ print $14 " " $15 }'
	local fwd=$(console_lines 'rcu_torture_fwd_prog_cr Duration' | sort -k15nr | head -1 | awk '{ print $14 " " $15 }')
	[[ $fwd =~ ^n_max_cbs:\ [1-9][0-9]*$ ]] || die "fwdprog '$fwd'"
	# The kernel's line and ours agree on n_max_cbs.
	local ours=$(sed -n 's/^memb-torture: fwd_prog_cr 0: .* n_max_cbs: \([0-9]*\) .*/\1/p' "$OUT" | sort -nr | head -1)
	[[ $fwd == "n_max_cbs: $ours" ]] || die "fwdprog '$fwd', ours $ours"
}

# kvm-recheck-rcuscale.sh's "Grace periods:" line, as the current script
# computes it: ngps = $9 of the line matching /-scale: .* gps: .* batches:/
# and nbatches = 1, printed as
# "Grace periods: " ngps + 0 " Batches: " nbatches + 0 " Ratio: " ngps / nbatches.
# Before, we printed "Batches: N Ratio: 1" (the flavor's batches).
t_kvm_recheck_rcuscale_grace_periods_line() {
	run --test scale --holdoff 0 --duration 0 --min-samples 20 --nreaders 0
	expect_status 0
	local want=$(console_lines '-scale: .* gps: .* batches:' | awk '{ ngps = $9; nbatches = 1 } END { print "Grace periods: " ngps + 0 " Batches: " nbatches + 0 " Ratio: " ngps / nbatches }')
	[[ $want =~ ^Grace\ periods:\ [1-9] ]] || die "no gps: line ($want)"
	grep -qxF -- "$want" "$OUT" || die "expected '$want', got '$(grep '^Grace periods:' "$OUT")'"
}
