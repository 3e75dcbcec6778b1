#!/usr/bin/env bash
# Regenerates cmd/nccllog/default.pgo, the CPU profile that `go build` and `go install` use
# for profile-guided optimization of nccllog (Go 1.21 and later pick it up by its name).
# The profile is of BenchmarkRun: the whole pipeline, reader, workers and merge, over a
# generated 16-rank log with two workers. Re-run it after changing the hot path.
#
#   bench/pgo.sh [--benchtime 40x]
set -euo pipefail
cd "$(dirname "$0")/.."

benchtime=40x
while [ $# -gt 0 ]; do
  case $1 in
    --benchtime) benchtime=$2; shift 2 ;;
    *) echo "usage: bench/pgo.sh [--benchtime N|Nx]" >&2; exit 2 ;;
  esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Built without the current profile, so the new one is of code compiled the plain way.
go test -c -pgo=off -o "$tmp/pipeline.test" ./pipeline/
(cd pipeline && "$tmp/pipeline.test" -test.run '^$' -test.bench '^BenchmarkRun$/^jobs=2$' \
  -test.benchtime "$benchtime" -test.cpuprofile "$tmp/cpu.prof")
cp "$tmp/cpu.prof" cmd/nccllog/default.pgo
echo "wrote cmd/nccllog/default.pgo ($(wc -c <cmd/nccllog/default.pgo) bytes)"
