#!/usr/bin/env bash
# mixes.sh — time `nccllog report` on each kind of input, side by side, in one run.
#
#   bench/mixes.sh [--size 128MiB] [--dir /tmp/nccllog-mixes] [--runs 5]
#                  [--nccllog PATH] [--base PATH] [--gen PATH] [--keep]
#
# 1. builds ./cmd/nccllog and ./cmd/nccllog-gen (go build -o, into a temp dir);
# 2. generates each mix once with `nccllog-gen --mix NAME --size SIZE --seed 1` into --dir
#    (kept and reused while SIZE is the same): collective (the default 16-rank log), init
#    (the init lines of 4,096-rank jobs), job (torchrun output: NCCL lines between the
#    script's log lines, free text and Python tracebacks), text (random printable text),
#    binary (random bytes);
# 3. warms the page cache, then runs `nccllog report MIX` on every mix, interleaved, --runs
#    times (with --base PATH, also that binary on every mix, to compare two builds);
# 4. prints the median wall time of each, MB/s, and throughput relative to the collective
#    mix of the same build in the same run, by wall time and by CPU time (user + sys, to the
#    millisecond, from bash's time); with --base, also this build's collective throughput
#    over the base build's.
#
# The machine is shared: only ratios inside one run mean anything, and where other work
# crowds the cores the CPU-time ratio is the steadier of the two.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
size="128MiB"
dir="/tmp/nccllog-mixes"
runs=5
keep=0
nccllog_bin=""
base_bin=""
gen_bin=""
mixes=(collective init job text binary)

die() {
	echo "mixes.sh: $*" >&2
	exit 2
}
need_arg() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value"; }

while [[ $# -gt 0 ]]; do
	case "$1" in
	--size) need_arg "$@"; size="$2"; shift 2 ;;
	--dir) need_arg "$@"; dir="$2"; shift 2 ;;
	--runs) need_arg "$@"; runs="$2"; shift 2 ;;
	--nccllog) need_arg "$@"; nccllog_bin="$2"; shift 2 ;;
	--base) need_arg "$@"; base_bin="$2"; shift 2 ;;
	--gen) need_arg "$@"; gen_bin="$2"; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
	*) die "unknown argument: $1" ;;
	esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer, got '$runs'"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/nccllog-mixes.XXXXXX")"
cleanup() { if [[ $keep -eq 1 ]]; then echo "kept: $tmp" >&2; else rm -rf -- "$tmp"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ -z "$nccllog_bin" ]]; then
	(cd "$root" && go build -o "$tmp/nccllog" ./cmd/nccllog) || die "go build ./cmd/nccllog failed"
	nccllog_bin="$tmp/nccllog"
fi
if [[ -z "$gen_bin" ]]; then
	(cd "$root" && go build -o "$tmp/nccllog-gen" ./cmd/nccllog-gen) || die "go build ./cmd/nccllog-gen failed"
	gen_bin="$tmp/nccllog-gen"
fi

mkdir -p -- "$dir"
for m in "${mixes[@]}"; do
	f="$dir/$m.log"
	if [[ -f "$f" && "$(cat -- "$f.meta" 2> /dev/null)" == "size=$size seed=1" ]]; then
		continue
	fi
	echo "generating $m ($size)" >&2
	"$gen_bin" --mix "$m" --size "$size" --seed 1 -o "$f"
	echo "size=$size seed=1" > "$f.meta"
done
for m in "${mixes[@]}"; do cat -- "$dir/$m.log" > /dev/null; done

# names[i]: the mixes with the build under test, then with the base build.
names=("${mixes[@]}")
if [[ -n "$base_bin" ]]; then
	for m in "${mixes[@]}"; do names+=("$m (--base)"); done
fi

run_one() {
	local i="$1" bin="$nccllog_bin" m t0 t1 TIMEFORMAT='%3U %3S'
	if [[ $i -ge ${#mixes[@]} ]]; then
		bin="$base_bin" m="${mixes[$((i - ${#mixes[@]}))]}"
	else
		m="${mixes[$i]}"
	fi
	t0="$EPOCHREALTIME"
	{ time "$bin" report "$dir/$m.log" > /dev/null 2> "$tmp/stderr"; } 2> "$tmp/cpu" ||
		die "report on $m failed: $(head -c 300 "$tmp/stderr")"
	t1="$EPOCHREALTIME"
	echo "$i $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') $(wc -c < "$dir/$m.log") $(awk '{ print $1 + $2 }' "$tmp/cpu")" >> "$tmp/times"
}

: > "$tmp/times"
for ((r = 1; r <= runs; r++)); do
	echo "run $r/$runs" >&2
	for ((i = 0; i < ${#names[@]}; i++)); do run_one "$i"; done
done

{
	printf '%s\n' "${names[@]}"
	echo "--"
	cat "$tmp/times"
} | awk -v runs="$runs" -v size="$size" -v nmix="${#mixes[@]}" '
function median(i, v,    n, k, j, t, a) {
	n = cnt[i]
	for (k = 1; k <= n; k++) a[k] = v[i, k]
	for (k = 2; k <= n; k++) { t = a[k]; for (j = k; j > 1 && a[j - 1] > t; j--) a[j] = a[j - 1]; a[j] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
sep == 0 && $0 == "--" { sep = 1; next }
sep == 0 { name[nn++] = $0; next }
{ i = $1; ++cnt[i]; wall[i, cnt[i]] = $2 + 0; bytes[i] = $3 + 0; cpu[i, cnt[i]] = $4 + 0 }
END {
	printf "nccllog report, mixes of about %s; medians of %d interleaved runs\n\n", size, runs
	printf "%-22s %12s %8s %8s %9s %9s %9s\n", "mix", "bytes", "wall s", "cpu s", "MB/s", "x coll", "x coll"
	printf "%-22s %12s %8s %8s %9s %9s %9s\n", "", "", "", "", "(wall)", "(wall)", "(cpu)"
	for (i = 0; i < nn; i++) { w[i] = median(i, wall); c[i] = median(i, cpu); mbs[i] = bytes[i] / 1e6 / w[i]; cps[i] = bytes[i] / (c[i] > 0 ? c[i] : 1e-9) }
	for (i = 0; i < nn; i++) {
		r = (i < nmix) ? 0 : nmix # the collective mix of the same build
		printf "%-22s %12d %8.3f %8.3f %9.1f %9.2f %9.2f\n", name[i], bytes[i], w[i], c[i], mbs[i], mbs[i] / mbs[r], cps[i] / cps[r]
	}
	if (nn > nmix)
		printf "\ncollective, this build over --base: %.2f (wall), %.2f (cpu)\n", mbs[0] / mbs[nmix], cps[0] / cps[nmix]
}'
printf '\nmachine: %s CPUs; %s\n' "$(nproc)" "$(go version 2> /dev/null || echo go: not found)"
