#!/usr/bin/env bash
# compare.sh — time nccllog against `wc -l` and the AWK chain it replaces, in one run.
#
#   bench/compare.sh [--size 1GiB] [--log /tmp/nccllog-bench.log] [--runs 3]
#                    [--jobs N] [--awk awk] [--keep]
#                    [--nccllog PATH] [--gen PATH]
#
# 1. builds ./cmd/nccllog and ./cmd/nccllog-gen (go build -o, into a temp dir);
# 2. generates the log once with `nccllog-gen --size SIZE --seed 1 -o LOG`; the log is
#    cached at --log and regenerated only if missing or generated for another size
#    (the size it was generated for is kept in LOG.meta);
# 3. warms the page cache (cat LOG > /dev/null);
# 4. runs, interleaved, --runs times each:
#      wc -l LOG
#      bench/awk/chain.sh LOG                  (all passes of the AWK chain)
#      nccllog report [--jobs N] LOG           (stdout kept in the temp dir)
#      nccllog split --steps 45-50 [--jobs N] LOG > /dev/null
#      nccllog report --steps 45-50 --boundary start [--jobs N] LOG
#                                              (the chain's question: its cut, then its analyses)
#    each under /usr/bin/time -f %M for the peak RSS;
# 5. prints a plain-text table (median wall time, MB/s, ratios, peak RSS) and the machine.
#
# Ratios are only meaningful inside one run: the machine is shared, so compare the
# columns of one table, never numbers from different runs.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
chain="$here/awk/chain.sh"

size="1GiB"
log="/tmp/nccllog-bench.log"
runs=3
jobs=""
keep=0
awk_bin="awk"
nccllog_bin=""
gen_bin=""
seed=1

usage() {
	sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
	cat <<'EOF'

Options:
  --size SIZE      log size passed to nccllog-gen (default 1GiB)
  --log PATH       cached log path (default /tmp/nccllog-bench.log)
  --runs N         runs per command, the median is reported (default 3)
  --jobs N         pass --jobs N to nccllog
  --awk AWK        awk binary for the chain (default awk)
  --keep           keep the temp dir (binaries, chain outputs, report, raw timings)
  --nccllog PATH   use this nccllog binary instead of building ./cmd/nccllog
  --gen PATH       use this generator instead of building ./cmd/nccllog-gen
EOF
}

die() {
	echo "compare.sh: $*" >&2
	exit 2
}

need_arg() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value"; }

while [[ $# -gt 0 ]]; do
	case "$1" in
	--size) need_arg "$@"; size="$2"; shift 2 ;;
	--size=*) size="${1#*=}"; shift ;;
	--log) need_arg "$@"; log="$2"; shift 2 ;;
	--log=*) log="${1#*=}"; shift ;;
	--runs) need_arg "$@"; runs="$2"; shift 2 ;;
	--runs=*) runs="${1#*=}"; shift ;;
	--jobs) need_arg "$@"; jobs="$2"; shift 2 ;;
	--jobs=*) jobs="${1#*=}"; shift ;;
	--awk) need_arg "$@"; awk_bin="$2"; shift 2 ;;
	--awk=*) awk_bin="${1#*=}"; shift ;;
	--nccllog) need_arg "$@"; nccllog_bin="$2"; shift 2 ;;
	--nccllog=*) nccllog_bin="${1#*=}"; shift ;;
	--gen) need_arg "$@"; gen_bin="$2"; shift 2 ;;
	--gen=*) gen_bin="${1#*=}"; shift ;;
	--keep) keep=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
done

[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer, got '$runs'"
[[ -z "$jobs" || "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer, got '$jobs'"
[[ -n "$size" ]] || die "--size must not be empty"

# Size in bytes, for deciding whether the cached log matches; empty if not understood.
size_bytes() {
	echo "$1" | awk '{
		s = $0; gsub(/[ \t]/, "", s)
		if (!match(s, /^[0-9]+(\.[0-9]+)?/)) exit
		n = substr(s, 1, RLENGTH); u = toupper(substr(s, RLENGTH + 1))
		if (u == "" || u == "B") m = 1
		else if (u == "K" || u == "KIB") m = 1024
		else if (u == "KB") m = 1000
		else if (u == "M" || u == "MIB") m = 1024 * 1024
		else if (u == "MB") m = 1000 * 1000
		else if (u == "G" || u == "GIB") m = 1024 * 1024 * 1024
		else if (u == "GB") m = 1000 * 1000 * 1000
		else if (u == "T" || u == "TIB") m = 1024 * 1024 * 1024 * 1024
		else if (u == "TB") m = 1000 * 1000 * 1000 * 1000
		else exit
		printf "%.0f\n", n * m
	}'
}

# ---- tools -----------------------------------------------------------------
missing=()
[[ -x /usr/bin/time ]] || missing+=(time)
command -v "$awk_bin" > /dev/null 2>&1 || missing+=(gawk)
if [[ ${#missing[@]} -gt 0 ]]; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get > /dev/null 2>&1; then
		echo "installing: ${missing[*]}" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" > /dev/null ||
			{ apt-get update -q > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" > /dev/null; }
		[[ " ${missing[*]} " == *" gawk "* && "$awk_bin" == "awk" ]] && ! command -v awk > /dev/null 2>&1 && awk_bin=gawk
	else
		die "missing tools (${missing[*]}); install the Debian packages 'time' and 'gawk'"
	fi
fi
[[ -x /usr/bin/time ]] || die "/usr/bin/time not available"
command -v "$awk_bin" > /dev/null 2>&1 || die "awk '$awk_bin' not found"
TIME=/usr/bin/time

tmp="$(mktemp -d "${TMPDIR:-/tmp}/nccllog-bench.XXXXXX")"
cleanup() {
	if [[ $keep -eq 1 ]]; then
		echo "kept: $tmp" >&2
	else
		rm -rf -- "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- build -----------------------------------------------------------------
mkdir -p -- "$tmp/bin"
if [[ -z "$nccllog_bin" || -z "$gen_bin" ]]; then
	command -v go > /dev/null 2>&1 || die "go not found (or pass --nccllog and --gen)"
fi
if [[ -z "$nccllog_bin" ]]; then
	echo "building ./cmd/nccllog" >&2
	(cd "$root" && go build -o "$tmp/bin/nccllog" ./cmd/nccllog) || die "go build ./cmd/nccllog failed"
	nccllog_bin="$tmp/bin/nccllog"
fi
if [[ -z "$gen_bin" ]]; then
	echo "building ./cmd/nccllog-gen" >&2
	(cd "$root" && go build -o "$tmp/bin/nccllog-gen" ./cmd/nccllog-gen) || die "go build ./cmd/nccllog-gen failed"
	gen_bin="$tmp/bin/nccllog-gen"
fi

# ---- log -------------------------------------------------------------------
meta="$log.meta"
want_bytes="$(size_bytes "$size")"
want_meta="size=${want_bytes:-$size} seed=$seed"
if [[ -f "$log" && -f "$meta" && "$(cat -- "$meta")" == "$want_meta" ]]; then
	echo "using cached log $log ($size)" >&2
else
	echo "generating $size log at $log" >&2
	rm -f -- "$meta"
	mkdir -p -- "$(dirname -- "$log")"
	"$gen_bin" --size "$size" --seed "$seed" -o "$log"
	[[ -s "$log" ]] || die "generator produced no output at $log"
	printf '%s\n' "$want_meta" > "$meta"
fi
log_bytes="$(wc -c < "$log" | tr -d ' ')"

echo "warming the page cache" >&2
cat -- "$log" > /dev/null

# ---- timing ----------------------------------------------------------------
# nccllog takes its flags after the subcommand.
jobs_flag=()
[[ -n "$jobs" ]] && jobs_flag=(--jobs "$jobs")

awk_name="$(basename -- "$(readlink -f -- "$(command -v "$awk_bin")")")"
names=(
	"wc -l LOG"
	"AWK chain ($awk_name, 6 passes)"
	"nccllog report${jobs:+ --jobs $jobs} LOG"
	"nccllog split --steps 45-50${jobs:+ --jobs $jobs} LOG"
	"nccllog report --steps 45-50 --boundary start${jobs:+ --jobs $jobs} LOG"
)

now() {
	if [[ -n "${EPOCHREALTIME:-}" ]]; then
		echo "$EPOCHREALTIME"
	else
		date +%s.%N
	fi
}

# run_cmd I: run command number I once, with stdout to OUT; appends "I seconds rss_kib".
run_cmd() {
	local i="$1" out t0 t1 rc=0
	case "$i" in
	0) out="$tmp/wc.out"; set -- wc -l "$log" ;;
	1) out=/dev/null; set -- env AWK="$awk_bin" "$chain" -o "$tmp/chain" "$log" ;;
	2) out="$tmp/report.out"; set -- "$nccllog_bin" report "${jobs_flag[@]}" "$log" ;;
	3) out=/dev/null; set -- "$nccllog_bin" split --steps 45-50 "${jobs_flag[@]}" "$log" ;;
	4) out="$tmp/report-steps.out"; set -- "$nccllog_bin" report --steps 45-50 --boundary start "${jobs_flag[@]}" "$log" ;;
	esac
	t0="$(now)"
	"$TIME" -f %M -o "$tmp/rss" "$@" > "$out" 2> "$tmp/stderr" || rc=$?
	t1="$(now)"
	if [[ $rc -ne 0 ]]; then
		echo "compare.sh: '${names[$i]}' failed (exit $rc): $*" >&2
		sed 's/^/  /' "$tmp/stderr" >&2
		exit 1
	fi
	echo "$i $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') $(tail -n 1 "$tmp/rss")" >> "$tmp/times"
}

: > "$tmp/times"
for ((r = 1; r <= runs; r++)); do
	echo "run $r/$runs" >&2
	for i in 0 1 2 3 4; do
		run_cmd "$i"
	done
done

lines="$(awk '{ print $1; exit }' "$tmp/wc.out")"

# ---- report ----------------------------------------------------------------
cpu="$(awk -F': *' '/^(model name|Model|Hardware|cpu model)[ \t]*:/ { print $2; exit }' /proc/cpuinfo 2> /dev/null || true)"
[[ -n "$cpu" ]] || cpu="$(lscpu 2> /dev/null | awk -F': *' '/^Model name/ { print $2; exit }' || true)"
[[ -n "$cpu" ]] || cpu="unknown"
gover="$(go version 2> /dev/null || echo "go: not found")"
awkver="$("$awk_bin" -W version 2> /dev/null | head -n 1 || true)"
[[ -n "$awkver" ]] || awkver="$("$awk_bin" --version 2> /dev/null | head -n 1 || echo "$awk_bin")"

{
	printf '%s\n' "${names[@]}"
	echo "--"
	cat "$tmp/times"
} | awk -v bytes="$log_bytes" -v lines="$lines" -v runs="$runs" -v size="$size" '
function median(i,    n, k, j, t, a) {
	n = cnt[i]
	for (k = 1; k <= n; k++) a[k] = v[i, k]
	for (k = 2; k <= n; k++) { t = a[k]; for (j = k; j > 1 && a[j - 1] > t; j--) a[j] = a[j - 1]; a[j] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
sep == 0 && $0 == "--" { sep = 1; next }
sep == 0 { name[nn++] = $0; next }
{ i = $1; v[i, ++cnt[i]] = $2 + 0; if ($3 + 0 > rss[i]) rss[i] = $3 + 0 }
END {
	for (i = 0; i < nn; i++) med[i] = median(i)
	printf "log: %s (%d bytes, %d lines); median wall time of %d interleaved runs, page cache warm\n\n", size, bytes, lines, runs
	printf "%-52s %10s %9s %9s %8s %13s\n", "command", "median s", "MB/s", "x wc -l", "x AWK", "peak RSS MiB"
	for (i = 0; i < nn; i++)
		printf "%-52s %10.3f %9.1f %9.3f %8.2f %13.1f\n", name[i], med[i], \
			(med[i] > 0 ? bytes / 1e6 / med[i] : 0), \
			(med[i] > 0 ? med[0] / med[i] : 0), (med[i] > 0 ? med[1] / med[i] : 0), rss[i] / 1024
	printf "\nMB/s = log bytes / 10^6 / median s (the AWK chain reads the log twice and the cut once more).\n"
	printf "x wc -l, x AWK = throughput relative to that command, from the same run (higher is faster).\n"
	printf "peak RSS = largest max RSS over the runs (/usr/bin/time %%M; for the AWK chain, its largest process).\n"
}'

printf '\nmachine: %s CPUs, %s\n' "$(nproc)" "$cpu"
printf '%s; awk: %s; %s\n' "$gover" "$awkver" "$(uname -sr)"
