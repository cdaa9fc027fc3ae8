#!/usr/bin/env bash
# The reproducer against the library alone for
# docs/findings/liburcu-0.15-lost-wakeup.md: compiles liburcu's own
# inline read-side functions from a Debian package of liburcu-dev for
# arm64 (clang, with Debian's arm64 C library headers, both fetched as
# packages and extracted outside the repository) and looks at what the
# wakeup path became.  In each function the reader's counter store is a
# store-release (stlr); the load that decides whether a grace period is
# waiting (urcu-mb: the futex; urcu-qsbr: the reader's `waiting` flag) must
# not be satisfied before that store is visible, which on Armv8 takes a
# barrier (dmb) or an acquire load (ldar) between them: a plain ldr after
# an stlr may pass it.  Prints one line per function and exits 1 if any
# plain load may pass the store (the lost wakeup's cause), 0 if none can,
# 77 with a SKIP line when the packages or clang cannot be had.
#
#   docs/findings/liburcu-0.15-lost-wakeup-arm64.sh [VERSION]
#
# VERSION: a Debian version of liburcu-dev (default 0.15.2-2, Debian 13's;
# 0.15.7-1 is sid's, fixed).  Needs clang, Debian's archive, and the
# project's ci/liburcu-version/fetch.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
version=${1:-0.15.2-2}
work=${LOST_WAKEUP_WORK:-$root/build/lost-wakeup-arm64}
clang=$(command -v clang-14 || command -v clang) || { echo "SKIP: no clang"; exit 77; }

dir=$("$root/ci/liburcu-version/fetch" "$version") || { echo "SKIP: liburcu-dev $version cannot be had"; exit 77; }
inc=$(echo "$dir"/usr/include/*-linux-gnu)
[[ -f $inc/urcu/urcu-mb.h ]] || { echo "SKIP: $dir has no urcu/urcu-mb.h"; exit 77; }

# Debian's arm64 C library headers (arch all, cross-compilers' package).
libc=$work/libc
if [[ ! -f $libc/usr/aarch64-linux-gnu/include/stdio.h ]]; then
	mkdir -p "$work/debs" && rm -rf "$libc" || exit 2
	(cd "$work/debs" && apt-get download libc6-dev-arm64-cross linux-libc-dev-arm64-cross) >"$work/apt.out" 2>&1 ||
		{ echo "SKIP: libc6-dev-arm64-cross cannot be downloaded: $(tail -n 1 "$work/apt.out")"; exit 77; }
	for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$libc" || exit 2; done
fi

# The three functions upstream's fix (0.15.6) changed, called as a
# program calls them.
cat >"$work/readers.c" <<'EOF'
#define _LGPL_SOURCE
#include <urcu/urcu-mb.h>
#include <urcu/urcu-qsbr.h>
void mb_read_unlock(void) { urcu_mb_read_unlock(); }
void qsbr_quiescent_state(void) { urcu_qsbr_quiescent_state(); }
void qsbr_thread_offline(void) { urcu_qsbr_thread_offline(); }
EOF
"$clang" --target=aarch64-linux-gnu -std=gnu11 -O2 -S -o "$work/readers.s" -nostdinc \
	-isystem "$("$clang" -print-resource-dir)/include" -I"$inc" \
	-isystem "$libc/usr/aarch64-linux-gnu/include" "$work/readers.c" 2>"$work/cc.out" ||
	{ echo "SKIP: clang cannot compile liburcu $version for arm64: $(head -n 1 "$work/cc.out")"; exit 77; }

# In each function, the instructions from the counter's stlr up to the
# first load: a plain ldr there may pass the store; dmb or ldar orders it.
awk -v v="$version" '
/^(mb_read_unlock|qsbr_quiescent_state|qsbr_thread_offline):/ { fn = substr($1, 1, length($1) - 1); seen = 0; done = 0; next }
fn == "" || done { next }
$1 == "stlr" { seen = 1; path = "stlr " $2 " " $3; next }
seen && ($1 == "dmb" || $1 == "ldar") { path = path "; " $1 " " $2; verdict = "ordered"; done = 1 }
seen && $1 == "ldr" && !done { path = path "; ldr " $2 " " $3 " " $4; verdict = "MAY PASS THE STORE"; done = 1; bad++ }
done && !printed[fn]++ { n++; printf "liburcu %s, %s (arm64): %s: %s\n", v, fn, path, verdict }
END { if (n != 3) { print "could not find the three functions'"'"' counter stores"; exit 2 } exit bad ? 1 : 0 }
' "$work/readers.s"
