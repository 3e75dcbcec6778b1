#!/usr/bin/env bash
# cpu.sh — CPU time of several commands, two builds side by side, on every input mix.
#
#   bench/cpu.sh --base PATH [--nccllog PATH] [--dir /tmp/nccllog-mixes] [--runs 11]
#                [--commands "report hang info"] [--inputs "collective init job text binary"]
#
# Runs `nccllog COMMAND MIX > /dev/null` with the base build and this one, interleaved (base,
# new, base, new, ...), --runs times for every command and mix, and prints the median CPU
# time (user + sys, milliseconds, from /usr/bin/time) of each and new/base. The mixes are the
# ones bench/mixes.sh generates (run it once with --keep, or point --dir at them); a mix
# missing from --dir is skipped. Without --nccllog, ./cmd/nccllog is built into a temp dir.
#
# The machine is shared: only ratios inside one run mean anything. CPU time is steadier than
# wall time where other work crowds the cores, and interleaving spreads what drifts.
set -euo pipefail
cd "$(dirname "$0")/.."

base_bin="" new_bin="" dir=/tmp/nccllog-mixes runs=11
commands="report hang info" inputs="collective init job text binary"
die() { echo "cpu.sh: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
	case "$1" in
	--base) base_bin="$2"; shift 2 ;;
	--nccllog) new_bin="$2"; shift 2 ;;
	--dir) dir="$2"; shift 2 ;;
	--runs) runs="$2"; shift 2 ;;
	--commands) commands="$2"; shift 2 ;;
	--inputs) inputs="$2"; shift 2 ;;
	-h | --help) sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
[[ -n "$base_bin" ]] || die "give --base PATH: the build to compare against"
[[ -x /usr/bin/time ]] || die "needs /usr/bin/time (Debian: apt-get install time)"
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
if [[ -z "$new_bin" ]]; then
	go build -o "$tmp/nccllog" ./cmd/nccllog
	new_bin="$tmp/nccllog"
fi

# cpu_ms BIN ARGS...: the CPU time of one run in milliseconds. A run that exits non-zero
# (diagnose and hang exit 3 where they find a fault) counts too: time then writes its "Command
# exited with non-zero status" line first, so the times are its last line.
cpu_ms() {
	/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1 || true
	tail -n 1 "$tmp/t" | awk '{printf "%d\n", ($1 + $2) * 1000}'
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

printf '%-8s %-11s %9s %9s %7s\n' command input base_ms new_ms new/base
for input in $inputs; do
	log="$dir/$input.log"
	[[ -f "$log" ]] || continue
	cat "$log" >/dev/null
	for cmd in $commands; do
		: >"$tmp/base" && : >"$tmp/new"
		for _ in $(seq "$runs"); do
			cpu_ms "$base_bin" "$cmd" "$log" >>"$tmp/base"
			cpu_ms "$new_bin" "$cmd" "$log" >>"$tmp/new"
		done
		b=$(median <"$tmp/base") n=$(median <"$tmp/new")
		printf '%-8s %-11s %9d %9d %7.3f\n' "$cmd" "$input" "$b" "$n" "$(awk -v n="$n" -v b="$b" 'BEGIN {print (b > 0 ? n / b : 0)}')"
	done
done
