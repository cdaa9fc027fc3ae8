# Helpers shared by the ci/bench scripts (sourced, not run).

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
