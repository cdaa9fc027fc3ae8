# Integration tests: --test ref (refscale).

REF_SHORT=(--test ref --nruns 3 --loops 1000)

# The kernel's refscale lines for one flavor and reader count, then ours.
expect_ref_block() { # name nreaders
	local fl=$1
	expect_out "^$fl-ref-scale:--- Start of test: loops=1000 nreaders=$2 nruns=3 readdelay=[0-9]+ "
	expect_out "^$fl-ref-scale: END OF TEST. Calculating average duration per loop \(nanoseconds\)\.\.\.$"
	expect_out "^$fl-ref-scale: Average reader duration: [0-9]+\.[0-9]{3} nanoseconds$"
	for what in Minimum Median Maximum; do
		expect_out "^$fl-ref-scale: $what reader duration: [0-9]+\.[0-9]{3}$"
	done
	expect_out "^$fl-ref-scale:--- End of test: SUCCESS: loops=1000 nreaders=$2 "
}

# The table under "<title>": the row for N readers, one number per column.
table_row() { # title-regex nreaders
	awk -v t="$1" -v n="$2" '$0 ~ t { on = 1; next } on && $1 == n { print; exit }' "$OUT"
}

ref_report_of() { # flavor
	run "${REF_SHORT[@]}" --flavor "$1" --nreaders 1
	expect_status 0
	expect_ref_block "$1" 1
	# "Runs<TAB>Time(ns)", then one "<run><TAB><ns>.<3 digits>" per run.
	grep -qP '^Runs\tTime\(ns\)$' "$OUT" || die "no Runs/Time(ns) header"
	(($(grep -cP '^[1-3]\t[0-9]+\.[0-9]{3}$' "$OUT") == 3)) || die "expected 3 run lines"
	expect_out "^readers +$1$"
	[[ $(table_row '^Read-side cost, ns per section' 1) =~ ^1\ +[0-9]+\.[0-9]{3}$ ]] || die "bad ns row"
	[[ $(table_row '^Lookups/s' 1) =~ ^1\ +[0-9]+$ ]] || die "bad lookups/s row"
}

t_ref_report_memb() { ref_report_of memb; }
t_ref_report_mb() { ref_report_of mb; }
t_ref_report_signal() { ref_report_of signal; }
t_ref_report_qsbr() { ref_report_of qsbr; }
t_ref_report_bp() { ref_report_of bp; }
t_ref_report_prcu() { ref_report_of prcu; }
t_ref_report_srcu() { ref_report_of srcu; }

t_ref_sweep_table() {
	run "${REF_SHORT[@]}" --flavor memb,qsbr,rwlock --threads 1,2
	expect_status 0
	for fl in memb qsbr rwlock; do
		expect_ref_block $fl 1
		expect_ref_block $fl 2
	done
	expect_out '^readers +memb +qsbr +rwlock$'
	local n
	for n in 1 2; do
		[[ $(table_row '^Read-side cost' $n) =~ ^$n(\ +[0-9]+\.[0-9]{3}){3}$ ]] || die "ns row $n: $(table_row '^Read-side cost' $n)"
		[[ $(table_row '^Lookups/s' $n) =~ ^$n(\ +[0-9]+){3}$ ]] || die "lookups/s row $n"
	done
}

t_ref_baselines() {
	run "${REF_SHORT[@]}" --flavor qsbr --ref-baselines --nreaders 2
	expect_status 0
	for fl in qsbr none refcnt rwlock mutex; do
		expect_ref_block $fl 2
	done
	expect_out '^readers +qsbr +none +refcnt +rwlock +mutex$'
}

t_ref_readdelay() {
	run "${REF_SHORT[@]}" --flavor memb,none --readdelay 2000 --nreaders 1
	expect_status 0
	expect_out '^memb-ref-scale: --readdelay 2000: each section calls read_lock, busy-waits 2000 ns'
	# A calibrated 2 us wait: no section can take much less.
	local row
	row=$(table_row '^Read-side cost' 1)
	awk -v r="$row" 'BEGIN { split(r, f, / +/); exit !(f[2] > 1000 && f[3] > 1000) }' || die "sections too short: $row"
}

t_ref_verbose_experiments() {
	run --test ref --nruns 2 --loops 100 --nreaders 2 --verbose
	expect_status 0
	(($(grep -c '^memb-ref-scale: Experiment #[12] (Format: <THREAD-NUM>:<Total loop time in ns>)$' "$OUT") == 2)) || die "expected 2 experiments"
	expect_out '^memb-ref-scale: 0: [0-9]+ 1: [0-9]+$'
}

# --dry-run prints the Start line of every column (each flavor at each
# reader count) and measures nothing.
t_ref_dry_run_starts_nothing() {
	local start=$SECONDS
	run --test ref --dry-run --flavor memb,none --threads 1,3 --loops 1000000000 --nruns 10000
	expect_status 0
	((SECONDS - start < 5)) || die "the dry run took $((SECONDS - start)) s"
	[[ $(grep -c 'ref-scale:--- Start of test: ' "$OUT") == 4 ]] || die "expected 4 Start lines"
	expect_out '^none-ref-scale:--- Start of test: loops=1000000000 nreaders=3 nruns=10000 '
	! grep -q 'End of test\|Read-side cost' "$OUT" || die "the dry run measured"
}
