#!/usr/bin/env bash
# outputs.sh — every command's output, in every format, over every log at hand, from two
# builds side by side: the proof that a change leaves output alone (or changes only what it
# says it does).
#
#   bench/outputs.sh --base PATH [--nccllog PATH] [--shared DIR] [--out DIR] [--keep]
#
# Inputs: the shared samples and golden logs (--shared, default ../shared), testdata/, the
# info test logs, and generated jobs (healthy, hung, mismatched, watchdog, 8 GPUs a process),
# each whole. For each input and each of report, stats, hist, agg, steps, calls, ranks,
# comms, hang, check, info in each of its formats (table, json, csv, awk; calls also ndjson),
# it keeps stdout, stderr and the exit status of both builds, then prints how many outputs
# it compared and the ones that differ (diff -u, first 40 lines each). Exit status 1 when any
# differs.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
shared="$root/../shared"
base_bin="" new_bin="" out="" keep=0
die() { echo "outputs.sh: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
	case "$1" in
	--base) base_bin="$2"; shift 2 ;;
	--nccllog) new_bin="$2"; shift 2 ;;
	--shared) shared="$2"; shift 2 ;;
	--out) out="$2"; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
	*) die "unknown argument: $1" ;;
	esac
done
[[ -n "$base_bin" ]] || die "give --base PATH: the build to compare against"
if [[ -z "$out" ]]; then out="$(mktemp -d "${TMPDIR:-/tmp}/nccllog-outputs.XXXXXX")"; fi
[[ $keep -eq 1 ]] || trap 'rm -rf -- "$out"' EXIT
mkdir -p "$out/in"
if [[ -z "$new_bin" ]]; then
	(cd "$root" && go build -o "$out/nccllog" ./cmd/nccllog) || die "go build failed"
	new_bin="$out/nccllog"
fi
(cd "$root" && go build -o "$out/nccllog-gen" ./cmd/nccllog-gen) || die "go build nccllog-gen failed"

inputs=()
for f in "$shared"/samples/*.log "$shared"/golden/*/input.log "$root"/testdata/*.log "$root"/cmd/nccllog/testdata/info/*.log; do
	[[ -f "$f" ]] && inputs+=("$f")
done
gen() { local name=$1; shift; "$out/nccllog-gen" "$@" -o "$out/in/$name.log"; inputs+=("$out/in/$name.log"); }
gen healthy16 --seed 3 --ranks 16 --steps 8 --noise
gen hung --seed 4 --ranks 8 --steps 6 --stop-rank 5 --stop-after 30
gen mismatch --seed 5 --ranks 8 --steps 6 --mismatch-rank 2 --mismatch-call 17
gen watchdog --seed 7 --ranks 8 --steps 4 --watchdog-rank 3 --watchdog-seq 9
gen gpus8 --seed 6 --ranks 16 --steps 4 --gpus-per-process 8 --teardown
gen srun --seed 8 --ranks 16 --steps 4 --prefix srun --progress megatron

commands=(
	"report" "report --format json"
	"stats" "stats --format json" "stats --format csv" "stats --format awk"
	"hist" "hist --format json" "hist --format csv" "hist --format awk"
	"agg" "agg --format json" "agg --format csv" "agg --format awk"
	"steps" "steps --format json" "steps --format csv" "steps --format awk"
	"calls" "calls --format csv" "calls --format ndjson"
	"ranks" "ranks --format json" "comms" "comms --format json"
	"hang" "hang --format json" "check" "check --format json"
	"info" "info --format json"
)
n=0 differ=0
for f in "${inputs[@]}"; do
	for c in "${commands[@]}"; do
		key="$(basename "$(dirname "$f")")_$(basename "$f")_${c// /_}"
		for side in base new; do
			bin=$base_bin
			[[ $side == new ]] && bin=$new_bin
			mkdir -p "$out/$side"
			# shellcheck disable=SC2086
			{ "$bin" $c "$f" >"$out/$side/$key.out" 2>"$out/$side/$key.err"; echo "exit $?" >>"$out/$side/$key.err"; } || true
		done
		n=$((n + 1))
		if ! cmp -s "$out/base/$key.out" "$out/new/$key.out" || ! cmp -s "$out/base/$key.err" "$out/new/$key.err"; then
			differ=$((differ + 1))
			echo "== differs: $c $f"
			{ diff -u "$out/base/$key.out" "$out/new/$key.out"; diff -u "$out/base/$key.err" "$out/new/$key.err"; } | head -40 || true
		fi
	done
done
echo "compared $n outputs (stdout, stderr and exit status each) over ${#inputs[@]} inputs; $differ differ"
[[ $differ -eq 0 ]]
