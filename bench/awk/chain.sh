#!/usr/bin/env bash
# chain.sh -o DIR [LOG]
#
# Re-creation of the users' AWK chain over an NCCL debug log:
#   split.awk  45-50  LOG        -> DIR/split.log
#   calls.awk  split.log         -> (temporary) op count dtype bytes, one line per call
#   stats.awk  calls             -> DIR/stats.txt
#   hist.awk   calls             -> DIR/hist.txt
#   agg.awk    calls             -> DIR/agg.txt
#   steps.awk  45-49  LOG        -> DIR/steps.txt
# The passes run one after the other, as the original chain did.
# LOG may be "-" or omitted to read standard input (spooled to a temp file,
# because the log is read twice).
# The awk binary is $AWK (default: awk); the scripts work with mawk and gawk.
set -euo pipefail
export LC_ALL=C # bytewise sorting and matching, as the original chain ran

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
AWK="${AWK:-awk}"
SPLIT_FROM=45 SPLIT_TO=50
STEPS_FROM=45 STEPS_TO=49

usage() {
	echo "usage: $(basename "$0") -o DIR [LOG|-]" >&2
	exit 2
}

out=""
while getopts ":o:h" opt; do
	case "$opt" in
	o) out="$OPTARG" ;;
	h) usage ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ -n "$out" ]] || usage
[[ $# -le 1 ]] || usage
log="${1:--}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/nccllog-chain.XXXXXX")"
trap 'rm -rf -- "$tmp"' EXIT

if [[ "$log" == "-" ]]; then
	cat > "$tmp/stdin.log"
	log="$tmp/stdin.log"
fi
[[ -r "$log" ]] || { echo "chain.sh: cannot read $log" >&2; exit 1; }
mkdir -p -- "$out"

"$AWK" -v from="$SPLIT_FROM" -v to="$SPLIT_TO" -f "$here/split.awk" "$log" > "$out/split.log"
"$AWK" -f "$here/calls.awk" "$out/split.log" > "$tmp/calls.txt"
"$AWK" -f "$here/stats.awk" "$tmp/calls.txt" > "$out/stats.txt"
"$AWK" -f "$here/hist.awk" "$tmp/calls.txt" > "$out/hist.txt"
"$AWK" -f "$here/agg.awk" "$tmp/calls.txt" > "$out/agg.txt"
"$AWK" -v from="$STEPS_FROM" -v to="$STEPS_TO" -f "$here/steps.awk" "$log" > "$out/steps.txt"
