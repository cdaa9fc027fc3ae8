# Integration tests: the kernel's rcutorture scripts read our output as
# they read a kernel console log (issue 13 item 9).  The scripts are GPL
# and are not shipped here.  The first tests apply the exact patterns and
# field numbers of the script lines they name, from
# tools/testing/selftests/rcutorture/bin/ in torvalds/linux (where newer
# than 6.1: its kvm-recheck-rcu.sh reads fwdprog from
# "rcu_torture_fwd_prog_cr Duration", 6.1's from "rcu_torture_fwd_prog
# n_max_cbs:"; we print the newer, a summary figure, not a verdict); the
# last ones (below) run Debian's 6.1 copies of the scripts themselves.  The
# rules the first tests apply:
#   parse-console.sh       the FAILURE check, the ver: sequence check and
#                          the stall counter (n_stalls)
#   kvm-recheck-rcu.sh     ngps, stopstate, fwdprog
#   kvm-recheck-rcuscale.sh  the "Grace periods:" line

# The kernel's scripts read our output, the same from either build.
TEST_FILE_NORMAL_ONLY="the kernel's parsers"

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

# --- The kernel's scripts themselves (issue 26 item 5) ---------------------
#
# The tests above apply the scripts' rules as we read them; these run the
# scripts, from Debian's linux-source-6.1 (ci/deps installs it, and gawk,
# which kvm-recheck-rcuscale.sh needs for asort), on our logs, and fail
# where a script's verdict differs from ours.  The scripts are extracted,
# once per run-tests run, into its temporary folder (beside the tests'
# own), never into the repository: they are the kernel's code, not ours.
# Where 6.1 and newer kernels differ on a rule we rely on, the newer is
# followed and the test says so.

KERNEL_TAR=${KERNEL_TAR:-/usr/src/linux-source-6.1.tar.xz}
KERNEL_SCRIPTS_NEEDED='functions.sh parse-console.sh console-badness.sh kvm-recheck-rcu.sh kvm-recheck-rcuscale.sh kvm-recheck-rcuscale-ftrace.sh kvm-recheck-refscale.sh'

# Sets KS to the folder holding the scripts, extracting them the first
# time (12 s: xz reads the whole 138 MB tarball for a few files).
kernel_scripts() {
	local cache f tmp
	[[ -r $KERNEL_TAR ]] || die "no $KERNEL_TAR: ci/deps installs linux-source-6.1 (as root)"
	command -v gawk >/dev/null || die "no gawk: ci/deps installs it (as root)"
	cache=$(dirname "$(dirname "$TEST_TMP")")/kernel-scripts
	if [[ ! -e $cache/kvm-recheck-rcu.sh ]]; then
		tmp=$(mktemp -d "$cache.XXXXXX") || die "mktemp"
		tar -xJf "$KERNEL_TAR" -C "$tmp" --wildcards --no-wildcards-match-slash --strip-components=6 \
			$(for f in $KERNEL_SCRIPTS_NEEDED; do echo "*/tools/testing/selftests/rcutorture/bin/$f"; done) ||
			die "cannot extract the rcutorture scripts from $KERNEL_TAR"
		# Another test may have won the race: either copy is whole.
		mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp"
	fi
	for f in $KERNEL_SCRIPTS_NEEDED; do
		[[ -r $cache/$f ]] || die "$KERNEL_TAR has no $f"
	done
	KS=$cache
}

# A kernel-style results folder for $OUT: console.log, and qemu-cmd with
# the run's length as rcutorture.shutdown_secs (kvm-recheck-rcu.sh's GPs/s
# and close-call rate divide by it).
results_dir() { # name seconds
	local d=$TEST_TMP/$1
	mkdir -p "$d" && cp "$OUT" "$d/console.log"
	echo "rcutorture (userspace) rcutorture.shutdown_secs=$2" >"$d/qemu-cmd"
	RD=$d
}

# Run one kernel script the way kvm-recheck.sh does: its folder on PATH
# (they source functions.sh and call each other by name), the colours of
# print_bug/print_warning stripped, egrep's obsolescence notes dropped.
kscript() { # name args...
	local s=$1
	shift
	PATH=$KS:$PATH bash "$KS/$s" "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | grep -v 'egrep: warning: egrep is obsolescent'
}

# What parse-console.sh and kvm-recheck-rcu.sh make of a torture log, as
# one of our verdicts: SUCCESS when both are silent but for the GP count
# line, FAILURE for parse-console.sh's "BUG: ... FAILURE", RCU_HOTPLUG for
# its "HOTPLUG FAILURES", STALL for "no success message" with stalls
# counted; anything else is given as the scripts printed it.  Sets
# VERDICT, and PC and KR to the two scripts' outputs.
kernel_verdict() { # results-dir
	local name
	name=$(basename "$1")
	PC=$(TORTURE_SUITE=rcu kscript parse-console.sh "$1/console.log" "$name")
	KR=$(kscript kvm-recheck-rcu.sh "$1")
	if [[ $KR == *BUG:* || $KR == *WARNING:* ]]; then
		VERDICT="kvm-recheck-rcu.sh: $KR"
	elif [[ -z $PC ]]; then
		VERDICT=SUCCESS
	elif [[ $PC =~ ^BUG:\ $name\ FAILURE,\ [0-9]+\ instances ]]; then
		VERDICT=FAILURE
	elif [[ $PC =~ ^WARNING:\ HOTPLUG\ FAILURES\ $name ]]; then
		VERDICT=RCU_HOTPLUG
	elif [[ $PC =~ ^$name\ no\ success\ message, && $PC =~ Summary:.*Stalls:\ [1-9] ]]; then
		VERDICT=STALL
	else
		VERDICT="parse-console.sh: $PC"
	fi
}

# Our verdict (the End line's) and the scripts' agree on the run in $OUT,
# and kvm-recheck-rcu.sh found its grace periods, at a rate.
# Our verdict (the End line of DIR/console.log) and the scripts' agree on
# a results folder, and kvm-recheck-rcu.sh found its grace periods, at a
# rate.  Sets OURS.
expect_folder_agrees() { # dir
	local name
	name=$(basename "$1")
	OURS=$(sed -n 's/^[^ ]*-torture:--- End of test: \([A-Z_]*\):.*/\1/p' "$1/console.log" | tail -n 1)
	[[ -n $OURS ]] || die "$name: no End of test line"
	kernel_verdict "$1"
	[[ $VERDICT == "$OURS" ]] || die "$name: we say $OURS, the kernel's scripts: $VERDICT"
	[[ $KR =~ ^$name\ -------\ [1-9][0-9]*\ GPs\ \([0-9.e+]+/s\) ]] || die "kvm-recheck-rcu.sh on $name: '$KR'"
}

# The same for the run in $OUT, put in a results folder NAME.
expect_scripts_agree() { # name seconds
	results_dir "$1" "$2"
	expect_folder_agrees "$RD"
}

t_kernel_scripts_read_a_success() {
	kernel_scripts
	run --duration 2 --stat-interval 0.5
	expect_status 0
	expect_scripts_agree SUCCESS 2
}

# parse-console.sh's "N instances" sums the last "!!!" line's last nine
# fields: the final Reader Pipe line's stages 2 to 10, the reads that saw
# an element too old.  Before: our later "!!! Failed checks: N" line was
# printed whole in its place.
t_kernel_scripts_read_a_failure_and_count_its_instances() {
	kernel_scripts
	run --flavor busted --duration 2 --stat-interval 0
	expect_status 1
	expect_scripts_agree FAILURE 2
	[[ $PC =~ FAILURE,\ $(pipe_late_sum)\ instances ]] || die "parse-console.sh: '$PC', our late reads: $(pipe_late_sum)"
	(($(pipe_late_sum) > 0)) || die "busted had no late reads"
}

t_kernel_scripts_read_a_stall() {
	kernel_scripts
	run --scenario BUSTED-HANG --duration 30 --stat-interval 0
	expect_status 4
	expect_scripts_agree STALL 30
}

# The kernel prints no "!!!" for a failed CPU hotplug: its End line's
# RCU_HOTPLUG is the verdict.  Before, our "!!! first CPU hotplug
# failure" line made parse-console.sh say "FAILURE, 0 instances".
t_kernel_scripts_read_a_hotplug_failure() {
	kernel_scripts
	run --flavor busted-hotplug --cpus 4 --onoff-interval 50ms --duration 2 --stat-interval 0
	expect_status 3
	expect_scripts_agree RCU_HOTPLUG 2
}

t_kernel_scripts_read_stutter_and_onoff() {
	kernel_scripts
	run --stutter 2s --stat-interval 500ms --duration 5 --nfakewriters 1
	expect_status 0
	expect_scripts_agree STUTTER 5
	run --cpus 4 --onoff-interval 20ms --duration 3 --stat-interval 1
	expect_status 0
	expect_scripts_agree ONOFF 3
}

# A --hunt run that ends SUCCESS has no Reader Batch close calls: tight
# reads sample the grace-period sequence before their section (reader.c),
# so they stay out of the batch histogram.  Before: kvm-recheck-rcu.sh
# read a 10 s prcu run as "BUG: 70 Reader Batch close calls".
t_kernel_scripts_read_a_hunt() {
	kernel_scripts
	run --flavor prcu --hunt --seed 1 --duration 5 --stat-interval 1
	expect_status 0
	expect_scripts_agree HUNT 5
}

# kvm-recheck-rcuscale.sh finds the writer-duration lines without
# --verbose, and computes our percentiles and grace-period count from
# them; a longer run prints a bounded sample.  Before: only --verbose
# printed them, 47 MB for a 2 s run.
t_kernel_scripts_read_scale() {
	local got p
	kernel_scripts
	run --test scale --holdoff 0 --duration 0 --min-samples 50 --nreaders 1
	expect_status 0
	results_dir SCALE 1
	[[ -z $(TORTURE_SUITE=rcuscale kscript parse-console.sh "$RD/console.log" SCALE) ]] ||
		die "parse-console.sh: $(TORTURE_SUITE=rcuscale kscript parse-console.sh "$RD/console.log" SCALE)"
	got=$(kscript kvm-recheck-rcuscale.sh "$RD")
	for p in 'Minimum grace-period duration:' '50th percentile grace-period duration:' \
		'90th percentile grace-period duration:' 'Maximum grace-period duration:' 'Grace periods:'; do
		[[ $'\n'$got == *$'\n'"$(grep -m 1 "^$p" "$OUT")"* ]] ||
			die "kvm-recheck-rcuscale.sh: '$(grep "^$p" <<<"$got")', ours: '$(grep -m 1 "^$p" "$OUT")'"
	done
	run --test scale --holdoff 0 --duration 2 --nreaders 1
	expect_status 0
	(($(stat -c %s "$OUT") < 1000000)) || die "a 2 s run wrote $(stat -c %s "$OUT") bytes"
	(($(grep -c 'writer-duration:' "$OUT") <= 10000)) || die "$(grep -c 'writer-duration:' "$OUT") writer-duration lines"
	results_dir SCALE2 2
	got=$(kscript kvm-recheck-rcuscale.sh "$RD")
	[[ $got == *'50th percentile grace-period duration: '* ]] || die "kvm-recheck-rcuscale.sh: $got"
}

# kvm-recheck-refscale.sh's average of the "Runs Time(ns)" table is ours.
t_kernel_scripts_read_ref() {
	local got ours
	kernel_scripts
	run --test ref --nruns 3 --loops 1000 --nreaders 1
	expect_status 0
	results_dir REF 1
	[[ -z $(TORTURE_SUITE=refscale kscript parse-console.sh "$RD/console.log" REF) ]] ||
		die "parse-console.sh: $(TORTURE_SUITE=refscale kscript parse-console.sh "$RD/console.log" REF)"
	got=$(kscript kvm-recheck-refscale.sh "$RD" | sed -n 's/^Average reader duration: \([0-9.e+]*\) nanoseconds$/\1/p')
	ours=$(sed -n 's/^memb-ref-scale: Average reader duration: \([0-9.]*\) nanoseconds$/\1/p' "$OUT")
	[[ -n $got && -n $ours ]] || die "kvm-recheck-refscale.sh: '$got', ours: '$ours'"
	awk -v a="$got" -v b="$ours" 'BEGIN { exit !(a - b < 0.001 && b - a < 0.001) }' ||
		die "kvm-recheck-refscale.sh's average $got, ours $ours"
}

# A campaign's run folders are kernel-style results folders: the scripts
# read each (qemu-cmd gives the run's length) and agree with its verdict.
t_kernel_scripts_read_a_campaign() {
	local d
	kernel_scripts
	mkdir -p "$TEST_TMP/sc"
	printf -- '--nreaders 1 --nfakewriters 0\n' >"$TEST_TMP/sc/GOOD"
	printf -- '--flavor busted --nreaders 1 --nfakewriters 0\n' >"$TEST_TMP/sc/BAD"
	RCUTORTURE_SCENARIO_DIR=$TEST_TMP/sc ci/campaign/rcutorture-campaign --bin "$BIN" \
		--results "$TEST_TMP/res" --duration 1s -j 2 "GOOD BAD" >"$OUT" 2>"$ERR"
	for d in GOOD BAD; do
		[[ -r $TEST_TMP/res/$d/qemu-cmd ]] || die "no qemu-cmd in $d"
		expect_folder_agrees "$TEST_TMP/res/$d"
	done
	[[ $OURS == FAILURE ]] || die "BAD ended $OURS"
}
