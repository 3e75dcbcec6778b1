#!/usr/bin/env bash
# check.sh [SHARED_DIR]
#
# Checks that chain.sh reproduces the original AWK chain's outputs byte for byte
# on the golden cases in SHARED_DIR/golden (default: ../shared relative to the
# repo root). Runs under every awk it finds among $AWK / mawk / gawk.
#   fsdp-8rank:      chain.sh input.log                 == awk/{split.log,stats,hist,agg,steps}
#   ddp-16rank-srun: sed 's/^[0-9]*: //' input.log | chain.sh
#                                                       == awk/{stats,hist,agg,steps}.txt
#                    The golden split.log there keeps the srun prefixes (the chain's cut
#                    is prefix-agnostic), so it is compared with chain.sh on the raw
#                    input.log, and the prefix-stripped cut with the stripped golden cut.
# Exits non-zero on any difference.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
shared="${1:-$root/../shared}"
golden="$shared/golden"
[[ -d "$golden" ]] || { echo "check.sh: no golden dir at $golden" >&2; exit 2; }

awks=()
if [[ -n "${AWK:-}" ]]; then
	awks+=("$AWK")
else
	for a in mawk gawk; do
		if command -v "$a" > /dev/null 2>&1; then awks+=("$a"); fi
	done
	[[ ${#awks[@]} -gt 0 ]] || awks+=(awk)
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/nccllog-check.XXXXXX")"
trap 'rm -rf -- "$tmp"' EXIT

fail=0
same() { # same NAME WANT GOT
	if cmp -s -- "$2" "$3"; then
		echo "  ok    $1"
	else
		echo "  DIFF  $1"
		diff -u -- "$2" "$3" | head -n 20 | sed 's/^/        /' || true
		fail=1
	fi
}

for a in "${awks[@]}"; do
	echo "== $a ($("$a" -W version 2>/dev/null | head -n 1 || "$a" --version 2>/dev/null | head -n 1 || true))"

	c="$golden/fsdp-8rank"
	o="$tmp/$a/fsdp"
	AWK="$a" "$here/chain.sh" -o "$o" "$c/input.log"
	for f in split.log stats.txt hist.txt agg.txt steps.txt; do
		same "fsdp-8rank/$f" "$c/awk/$f" "$o/$f"
	done

	c="$golden/ddp-16rank-srun"
	o="$tmp/$a/ddp"
	sed 's/^[0-9]*: //' "$c/input.log" | AWK="$a" "$here/chain.sh" -o "$o"
	for f in stats.txt hist.txt agg.txt steps.txt; do
		same "ddp-16rank-srun/$f (unprefixed input)" "$c/awk/$f" "$o/$f"
	done
	sed 's/^[0-9]*: //' "$c/awk/split.log" > "$tmp/$a/ddp-split-unprefixed.log"
	same "ddp-16rank-srun/split.log (unprefixed, vs stripped golden)" "$tmp/$a/ddp-split-unprefixed.log" "$o/split.log"
	o="$tmp/$a/ddp-raw"
	AWK="$a" "$here/chain.sh" -o "$o" "$c/input.log"
	same "ddp-16rank-srun/split.log (raw srun input)" "$c/awk/split.log" "$o/split.log"
done

if [[ $fail -ne 0 ]]; then
	echo "FAIL: chain.sh differs from the golden AWK outputs" >&2
	exit 1
fi
echo "PASS"
