# Helpers shared by the ci/bench scripts (sourced, not run).

# The script's header comment (the lines after #!, up to the first that
# is not a comment): its --help.
usage() {
	awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
}

# An error on stderr, named after the script (or BENCH_NAME), and exit.
die() { # status message
	echo "${BENCH_NAME:-${0##*/}}: $2" >&2
	exit "$1"
}

# An option's value must be a whole number in [min, max]: else exit 2.
count() { # option value min max
	[[ $2 =~ ^[0-9]+$ ]] && ((10#$2 >= $3 && 10#$2 <= $4)) ||
		die 2 "bad $1 '$2': expected an integer from $3 to $4"
}

# "TIME CHECK" of a run made with --stop-on-failure --json: when its first
# failure came and which check caught it, from the JSON; a stall (exit 4)
# whose JSON is missing has its "STALL at" time and the check "stall".
# "-" for what is unknown; the check's blanks become "_" (one word).
first_failure() { # json log exit-status
	local t= check=
	if [[ -s $1 ]]; then
		t=$(jq -r '.first_failure.time_s // empty' "$1" 2>/dev/null)
		check=$(jq -r '.first_failure.check // empty' "$1" 2>/dev/null)
	fi
	if (($3 == 4)); then
		[[ -n $t ]] || t=$(sed -n 's/.*STALL at \([0-9.]*\) s.*/\1/p' "$2" | head -n 1)
		[[ -n $check ]] || check=stall
	fi
	check=${check:--}
	printf '%s %s\n' "${t:--}" "${check// /_}"
}

# The figure after "<label>" on the first line of a log that starts with it.
value() { # log label
	sed -n "s/^$2 \([0-9.e+-]*\).*/\1/p" "$1" | head -n 1
}

# A JSON number, or null for a missing figure.
jnum() { printf '%s' "${1:-null}"; }

# The label centred in dashes, width characters in all: a column group.
group() { # width label
	awk -v w="$1" -v l=" $2 " 'BEGIN {
		d = w - length(l); s = sprintf("%*s", w, "")
		gsub(/ /, "-", s)
		print substr(s, 1, int(d / 2)) l substr(s, 1, d - int(d / 2)) }'
}

# The flavors of the libraries people ship (ck, DPDK, libcds) that binary
# bin has: --list-flavors lists an absent one as "(absent: ...)".
lib_flavors() { # bin
	"$1" --list-flavors 2>/dev/null | awk '
		$1 ~ /^(ck-epoch|dpdk-qsbr|cds-instant|cds-buffered|cds-signal)$/ && $2 != "(absent:" { printf "%s%s", s, $1; s = " " }'
}
