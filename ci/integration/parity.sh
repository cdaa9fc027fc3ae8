# Integration tests: the kernel parameters of issue 15 part one:
# interrupt readers (--irqreader), reader segments (--extendables), the
# duplicate call() test (--object-debug), up/down readers (--n-up-down)
# and the parity table of the man page.

# The last stats line's nt: (signal-handler reads).
nt_count() {
	text_field nt
}

t_irqreader_reads_in_signal_handlers() {
	for f in memb mb srcu prcu; do
		run --flavor $f --irqreader --duration 2 --stat-interval 0 --read-exit-burst 0
		expect_status 0
		expect_out "^$f-torture:--- Start of test: .* irqreader=1"
		(($(nt_count) > 100)) || die "$f: only $(nt_count) signal-handler reads"
		# Some interrupted the reader inside its own section.
		grep -qE "^$f-torture: irqreader: $(nt_count) signal-handler reads, [1-9][0-9]* of them nested in the interrupted reader's own section$" "$OUT" ||
			die "$f: no nested signal-handler reads: $(grep 'irqreader:' "$OUT")"
		(($(pipe_late_sum) == 0)) || die "$f: pipe stages >= 2"
	done
	# Off by default, and then nt: stays 0 and the line omits it.
	run --flavor memb --duration 1 --stat-interval 0
	expect_status 0
	(($(nt_count) == 0)) || die "nt: $(nt_count) without --irqreader"
	if grep -q 'irqreader=' "$OUT"; then die "irqreader= printed while off"; fi
}

t_irqreader_only_for_signal_safe_flavors() {
	# liburcu 0.13 allows readers in signal handlers with memb and mb
	# only: qsbr, bp and signal get none, and say so.
	for f in qsbr bp signal; do
		run --flavor $f --irqreader --duration 1 --stat-interval 0
		expect_status 0
		expect_out "^$f-torture: irqreader: the read side of flavor $f is not declared async-signal-safe"
		(($(nt_count) == 0)) || die "$f: nt: $(nt_count)"
	done
	run --flavor memb rcutorture.irqreader=1 --dry-run
	expect_status 0
	expect_out ' irqreader=1'
}

TEST_LIMIT[t_irqreader_negative_control_fails]=180
t_irqreader_negative_control_fails() {
	# busted-irq's handler readers hold nothing: the signal-handler
	# reader's own check must catch it (thread readers cannot).  Caught
	# in 0.2 s idle, it passed 30 s under ASan beside the suite: up to
	# three seeds.
	run_caught 3 --scenario BUSTED-IRQ --duration 20 --seed 1 --stat-interval 0
	expect_status 1
	expect_out "^busted-irq-torture: !!! first failure at .*: too-short grace period: reader [0-9]+'s signal-handler reader \(irqreader\) saw element .* at pipe stage [0-9]+"
	# Without --irqreader the same flavor passes.
	run --flavor busted-irq --duration 2 --stat-interval 0
	expect_status 0
}

t_object_debug_flavor_reports_duplicate() {
	run --scenario SRCU-OBJECT-DEBUG --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: rcutorture: WARN: Duplicate call_srcu\(\) test starting\.$'
	expect_out '^srcu-torture: rcutorture: WARN: Duplicate call_srcu\(\) test complete: 1 duplicate reported by the flavor, 0 flagged by the harness\.$'
	expect_out '^srcu-torture:--- Start of test: .* object_debug=1'
	if grep -q 'duplicated callback was invoked' "$OUT"; then die "duplicate invoked"; fi
}

t_object_debug_harness_flags_duplicate() {
	# memb declares no detection: the harness flags the duplicate and
	# keeps it from liburcu (whose queue it would corrupt).
	run --flavor memb rcutorture.object_debug=1 --duration 2 --stat-interval 0
	expect_status 0
	expect_out '^memb-torture: rcutorture: WARN: Duplicate call_memb\(\) test complete: 0 duplicate reported by the flavor, 1 flagged by the harness\.$'
	expect_out 'Callbacks: invoked: [0-9]+ early: 0 duplicate: 0 lost: 0'
}

t_object_debug_negative_control_fails() {
	run_caught 3 --scenario BUSTED-OBJECT-DEBUG --duration 5 --seed 1 --stat-interval 0
	expect_status 1
	expect_out '^srcu-torture: !!! first failure at .*: undetected duplicate call: flavor srcu declares duplicate call\(\) detection, but did not report object-debug callback'
	expect_out 'test complete: 0 duplicate reported by the flavor, 0 flagged by the harness'
}

t_updown_sections_cross_threads() {
	run --scenario SRCU-UPDOWN --duration 3 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture:--- Start of test: .* n_up_down=32'
	local line downs ups
	line=$(grep -E '^srcu-torture: up/down readers: ' "$OUT") || die "no up/down summary"
	read -r downs ups <<<"$(sed -E 's/.*: ([0-9]+) sections begun by down_read, ([0-9]+) ended.*/\1 \2/' <<<"$line")"
	((downs > 0 && downs == ups)) || die "up/down: $downs begun, $ups ended"
	(($(pipe_late_sum) == 0)) || die "pipe stages >= 2"
	# Flavors without down_read/up_read say so and run none.
	run --flavor memb rcutorture.n_up_down=8 --duration 1 --stat-interval 0
	expect_status 0
	expect_out '^memb-torture: n_up_down: flavor memb has no down_read/up_read: no up/down readers$'
}

# Up/down readers post callbacks from inside their sections too
# (--reader-cbs, issue 25): counted apart, accounted as every callback.
t_updown_sections_post_callbacks() {
	run --scenario SRCU-UPDOWN --reader-cbs 10 --duration 3 --stat-interval 0
	expect_status 0
	expect_out '^srcu-torture: reader-cbs: [1-9][0-9]* callbacks posted inside read-side sections, [1-9][0-9]* of them inside up/down sections$'
	expect_out '^srcu-torture: Callbacks: invoked: [1-9][0-9]* early: 0 duplicate: 0 lost: 0$'
}

TEST_LIMIT[t_updown_negative_control_fails]=150
t_updown_negative_control_fails() {
	run_caught 3 --scenario BUSTED-UPDOWN --duration 20 --seed 1 --stat-interval 0
	expect_status 1
	expect_out '^srcu-torture: !!! first failure at .*: too-short grace period: up/down reader saw element .* at pipe stage [0-9]+: begun by down_read on CPU -?[0-9]+, ended by up_read on CPU -?[0-9]+'
}

t_extendables_segments_succeed() {
	for f in memb srcu prcu qsbr; do
		run --flavor $f rcutorture.extendables=7 --duration 2 --stat-interval 0 --read-exit-burst 0
		expect_status 0
		expect_out "^$f-torture:--- Start of test: .* extendables=7"
		(($(pipe_slot 0) > 0)) || die "$f: no reads"
		(($(pipe_late_sum) == 0)) || die "$f: pipe stages >= 2"
	done
	run --scenario SRCU-EXTEND --duration 3 --stat-interval 0
	expect_status 0
	(($(text_field nt) > 0)) || die "no signal-handler reads"
	bad_input "--extendables: '8' is not" --extendables 8
}

t_extendables_negative_control_prints_segments() {
	run --scenario BUSTED-EXTEND --duration 2 --stat-interval 0
	expect_status 1
	# Which check fires first is a race (an early callback, rtmbe, a
	# reader); a segment reader must have failed and its list be printed.
	expect_out '^busted-torture: Failure/close-call rcutorture reader segments: \(reader [0-9]+, failure\)$'
	expect_out '^busted-torture: 	0: 0x[0-9a-f]+( [0-9]+us)?( preempted)?( SIGMASK)?( PREEMPT)?( DELAY)? RCU_1( RCU_2)?$'
	expect_out '^busted-torture: 	1: '
	# A classic read prints a list only when it failed after extending
	# its section (one read in 32): its first segment is its own.  Only
	# the first failure is printed, so the list may come from a later
	# failing read than the one printed (a fresh clone's ASan run).
	run --flavor busted --duration 1 --stat-interval 0
	expect_status 1
	if grep -q 'reader segments' "$OUT"; then
		expect_out '^busted-torture: 	0: 0x20 RCU_1$'
	fi
	if grep -q 'extended after its holds' "$OUT"; then
		expect_out '^busted-torture: Failure/close-call rcutorture reader segments: \(reader [0-9]+, failure\)$'
	fi
}

# The man page's KERNEL PARAMETER PARITY section, one "NAME<TAB>row" a line.
parity_rows() {
	awk '/^\.SH "KERNEL PARAMETER PARITY"/ { on = 1; next }
	     /^\.S[HS] / { on = 0 }
	     on && /^\.B [a-z]+\.[a-z_0-9]+$/ { name = $2; getline; print name "\t" $0 }' man/rcutorture.1
}

t_parity_table_covers_every_kernel_parameter() {
	local rows name row n=0
	rows=$(parity_rows)
	[[ -n $rows ]] || die "no KERNEL PARAMETER PARITY section in man/rcutorture.1"
	while read -r name; do
		[[ -z $name || $name == \#* ]] && continue
		n=$((n + 1))
		row=$(awk -F '\t' -v n="$name" '$1 == n { print $2 }' <<<"$rows")
		[[ -n $row ]] || die "parity table: no row for $name"
		[[ $row =~ ^(supported|analogue|not\ applicable):\ .+\.$ ]] ||
			die "parity table: $name: '$row' is not 'supported|analogue|not applicable: why.'"
	done <ci/kernel-params.txt
	((n >= 90)) || die "ci/kernel-params.txt lists only $n parameters"
	# No row for a parameter the list lacks, none twice, none missing.
	[[ $(cut -f1 <<<"$rows" | sort | uniq -d) == "" ]] || die "parity rows twice: $(cut -f1 <<<"$rows" | sort | uniq -d)"
	(($(wc -l <<<"$rows") == n)) || die "parity table has $(wc -l <<<"$rows") rows, the list $n"
	if grep -qi 'missing' <<<"$rows"; then die "a parity row says missing"; fi
}

t_parity_table_options_exist() {
	# Every option a parity row names is a real option of this binary.
	local opt opts
	run --help
	expect_status 0
	opts=$(parity_rows | grep -oE '\\fB(\\-)+[a-z]([a-z]|\\-)*' | sed -E 's/\\fB//; s/\\-/-/g' | sort -u)
	(($(wc -w <<<"$opts") >= 20)) || die "parity table names only: $opts"
	for opt in $opts; do
		grep -qE -- "(^|[ ,])$opt([=, ]|$)" "$OUT" || die "parity table names $opt, which --help lacks"
	done
}

# A valid kernel value (the kernel's default where it has one, in its
# unit) for every parameter the table marks supported, and what else the
# value needs (gp_async_max: gp_async).  A supported row without one here
# fails the test below: add it.
supported_sample() {
	case $1 in
	rcutorture.torture_type | rcuscale.scale_type | refscale.scale_type) echo srcu ;;
	rcutorture.fwd_progress_holdoff) echo 60 ;;
	rcutorture.fwd_progress_div) echo 4 ;;
	rcutorture.gp_cond_wi | rcutorture.gp_poll_wi) echo 16000 ;;
	rcutorture.gpwrap_lag | rcutorture.stall_cpu_block) echo 1 ;;
	rcutorture.n_barrier_cbs | rcutorture.nfakewriters) echo 4 ;;
	rcutorture.n_up_down) echo 32 ;;
	rcutorture.nreaders | rcuscale.nreaders | rcuscale.nwriters | refscale.nreaders) echo -1 ;;
	rcutorture.onoff_holdoff) echo 30 ;;
	rcutorture.onoff_interval) echo 200 ;;
	rcutorture.preempt_duration) echo 10 ;;
	rcutorture.preempt_interval) echo 1000 ;;
	rcutorture.read_exit_burst) echo 16 ;;
	rcutorture.read_exit_delay) echo 13 ;;
	rcutorture.shuffle_interval) echo 3 ;;
	rcutorture.shutdown_secs | rcutorture.stat_interval) echo 60 ;;
	rcutorture.stall_cpu) echo 22 ;;
	rcutorture.stall_cpu_holdoff | rcuscale.holdoff) echo 10 ;;
	rcutorture.stall_gp_kthread) echo 10 ;;
	rcutorture.stutter) echo 5 ;;
	rcuscale.gp_async_max) echo "1000 rcuscale.gp_async=1" ;;
	rcuscale.minruntime) echo 5 ;;
	rcuscale.writer_holdoff | refscale.readdelay) echo 0 ;;
	refscale.loops) echo 10000 ;;
	refscale.nruns) echo 30 ;;
	rcutorture.fwd_progress | rcutorture.fwd_progress_need_resched | rcutorture.gp_* | \
		rcutorture.irqreader | rcutorture.object_debug | *.verbose | rcuscale.gp_async | \
		rcuscale.gp_exp) echo 1 ;;
	esac
}

t_parity_supported_rows_kernel_spelling_accepted() {
	local name row val extra test n=0
	while IFS=$'\t' read -r name row; do
		[[ $row == supported:* ]] || continue
		n=$((n + 1))
		read -r val extra <<<"$(supported_sample "$name")"
		[[ -n $val ]] || die "supported row $name has no sample value in supported_sample"
		case $name in
		rcuscale.*) test=scale ;;
		refscale.*) test=ref ;;
		*) test=torture ;;
		esac
		# srcu has every primitive the rows name (full cookies, up/down).
		# shellcheck disable=SC2086
		run --test $test --flavor srcu "$name=$val" $extra --dry-run
		[[ $STATUS == 0 ]] || die "$name=$val (--test $test): exit $STATUS: $(head -n 1 "$ERR")"
		expect_out ":--- Start of test: "
		[[ ! -s $ERR ]] || die "$name=$val: stderr: $(head -n 1 "$ERR")"
	done < <(parity_rows)
	((n >= 50)) || die "only $n supported rows"
}

# Issue 26 item 7: a "not applicable" row's parameter (a kernel
# scenario's boot line may hold one) is ignored with a one-line note, not
# rejected; another RCU subsystem's parameter is named as the kernel's.
t_parity_not_applicable_rows_ignored_with_a_note() {
	local name row test n=0
	while IFS=$'\t' read -r name row; do
		[[ $row == "not applicable:"* ]] || continue
		n=$((n + 1))
		case $name in
		rcuscale.*) test=scale ;;
		refscale.*) test=ref ;;
		*) test=torture ;;
		esac
		run --test $test "$name=1" --dry-run
		[[ $STATUS == 0 ]] || die "$name=1 (--test $test): exit $STATUS: $(head -n 1 "$ERR")"
		expect_out ":--- Start of test: "
		expect_err "^rcutorture: ${name//./\\.} does not apply here \(.+\); ignored$"
		(($(wc -l <"$ERR") == 1)) || die "$name: more than one line on stderr"
	done < <(parity_rows)
	((n >= 20)) || die "only $n not-applicable rows"
	run rcutree.gp_preinit_delay=3 --dry-run
	expect_status 2
	expect_err "^rcutorture: 'rcutree.gp_preinit_delay=3': a parameter of the kernel's rcutree \(Tree RCU\), which has no counterpart here"
}

# The kernel's extendables mask: each of its bits 0x1 to 0x10 has our
# signal-masked stretch as analogue, so any nonzero mask is our 7.
t_kernel_extendables_mask_accepted() {
	local m
	for m in 0x1f 31 0x1 0x10 2; do
		run rcutorture.extendables=$m --dry-run
		expect_status 0
		expect_out ':--- Start of test: .* extendables=7( |$)'
	done
	run rcutorture.extendables=0 --dry-run
	expect_status 0
	expect_no_out 'extendables='
	bad_input "rcutorture.extendables: '0x20' is not valid; expected the kernel's mask, 0 to 0x1f \\(bh 0x1, irq 0x2, preempt 0x4, rbh 0x8, sched 0x10" rcutorture.extendables=0x20
	bad_input "rcutorture.extendables: '-1' is not valid" rcutorture.extendables=-1
	# The long option keeps our own bits.
	run --extendables 1 --dry-run
	expect_status 0
	expect_out ' extendables=1( |$)'
}

# The parity section's list of defaults that differ from the kernel's:
# every entry a kernel parameter with a one-line why, the two the kernel
# differs on most visibly among them.
t_parity_defaults_that_differ_listed() {
	local list name n=0
	list=$(awk '/^\.SS "Defaults that differ from the kernel.s"/ { on = 1; next }
		/^\.S[HS] / { on = 0 }
		on && /^\.B [a-z]+\.[a-z_0-9]+$/ { name = $2; getline; print name "\t" $0 }' man/rcutorture.1)
	[[ -n $list ]] || die "no 'Defaults that differ from the kernel's' list in the parity section"
	while IFS=$'\t' read -r name row; do
		n=$((n + 1))
		grep -qx "$name" ci/kernel-params.txt || die "defaults list names $name, not a kernel parameter"
		[[ $row == *"instead of"* ]] || die "defaults list: $name: '$row' says not what the kernel's default is"
	done <<<"$list"
	for name in rcutorture.fwd_progress_need_resched rcutorture.extendables rcutorture.irqreader rcuscale.nwriters \
		rcutorture.n_barrier_cbs rcutorture.gpwrap_lag; do
		grep -q "^$name	" <<<"$list" || die "defaults list lacks $name"
	done
	((n >= 15)) || die "defaults list has $n entries"
}
