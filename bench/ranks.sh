#!/usr/bin/env bash
# bench/ranks.sh [--ranks 1024] [--calls 100000]
#
# Memory of the rank analyses at scale: streams a generated log of RANKS ranks, each issuing
# about CALLS calls on the world communicator, through `nccllog check -` and `nccllog hang -`
# (no file on disk: the log can be tens of GB), and prints wall time and peak RSS. The rank
# analyses keep one reference sequence per communicator and a fixed state per rank, so peak
# RSS must stay well under 1 GiB at 1,024 ranks x 100,000 calls.
set -euo pipefail
ranks=1024 calls=100000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ranks) ranks="$2"; shift 2 ;;
    --calls) calls="$2"; shift 2 ;;
    *) echo "usage: bench/ranks.sh [--ranks N] [--calls N]" >&2; exit 2 ;;
  esac
done
command -v /usr/bin/time >/dev/null || { echo "bench/ranks.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/nccllog" ./cmd/nccllog && go build -o "$tmp/nccllog-gen" ./cmd/nccllog-gen)
# The generator issues 27 world-communicator calls per step.
steps=$(( (calls + 26) / 27 ))
echo "ranks=$ranks calls/rank~=$calls steps=$steps; machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
for cmd in check hang; do
  "$tmp/nccllog-gen" --ranks "$ranks" --ranks-per-host 8 --steps "$steps" --seed 2 \
    | /usr/bin/time -f "nccllog $cmd: %e s wall, peak RSS %M KiB" "$tmp/nccllog" "$cmd" - > "$tmp/$cmd.out" || true
  tail -n 1 "$tmp/$cmd.out"
done
