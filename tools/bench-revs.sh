#!/usr/bin/env bash
# HTTP benchmark of several revisions side by side (issue figures, not a
# test): `brandlens serve` built from each git revision (or `.` for the
# working tree as it is) answers wrk in turn, between two runs of the bare
# net/http handler, all in one run on this machine, so that every figure
# of a table shares the machine's load. Needs wrk (Debian package).
#
#   tools/bench-revs.sh DURATION CONNS REV...     e.g. tools/bench-revs.sh 10s 32 main .
#
# Measured per revision: GET /api/v1/me; the filtered citations page
# (platform=chatgpt&hasMention=true, page 3 of 20) over 100,000 citations;
# the same filter read by cursor 10,000 matches deep. PROFILE=1 also takes
# a CPU profile of `brandlens serve` during each run (a drop-in file adds
# net/http/pprof to the build; the product never links it) and prints its
# top, and prints the server's heap after the runs: RSS, and HeapInuse and
# HeapObjects after a collection. BENCH_STORE=dynamodb runs each server on DynamoDB Local instead
# (AWS_ENDPOINT_URL_DYNAMODB must point at it). ENDPOINTS="me citations
# cursor" (the default) chooses what is measured.
set -euo pipefail
dur=$1
conns=$2
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/benchrevs.XXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
key=local-key-bench-publish-00001
cat >"$work/seed.json" <<JSON
{"tenants":[{"name":"Bench","credits":1000,"rpmLimit":100000000,
 "brand":{"name":"Acme Notes","aliases":["AcmeNotes"],"domains":["acmenotes.com"]},
 "competitors":[{"name":"Notion"},{"name":"Evernote"}],
 "queries":[{"text":"best note taking app"},{"text":"notes for teams"},{"text":"evernote alternatives"}],
 "apiKeys":[{"key":"$key","scopes":["publish"]}]}]}
JSON
cat >"$work/zz_benchpprof.go" <<'GO'
package main

import (
	"net/http"
	_ "net/http/pprof"
	"os"
)

func init() {
	if a := os.Getenv("BENCH_PPROF_ADDR"); a != "" {
		go func() { _ = http.ListenAndServe(a, nil) }()
	}
}
GO
(cd "$repo" && go build -o "$work/barehttp" ./tools/barehttp)
names=()
i=0
for rev in "$@"; do
  i=$((i + 1))
  name="r$i"
  names+=("$name")
  src="$work/src-$name"
  "$repo/tools/checkout-rev.sh" "$rev" "$src"
  [ "${PROFILE:-}" = 1 ] && cp "$work/zz_benchpprof.go" "$src/cmd/brandlens/"
  (cd "$src" && go build -o "$work/bl-$name" ./cmd/brandlens)
  rm -rf "$src"
  if [ "$rev" = . ]; then
    echo "$name = the working tree (on $(git -C "$repo" rev-parse --short HEAD))"
  else
    echo "$name = $rev ($(git -C "$repo" rev-parse --short "$rev"))"
  fi
  export BRANDLENS_DATA_DIR="$work/data-$name"
  if [ "${BENCH_STORE:-}" = dynamodb ]; then
    export BRANDLENS_TABLE="bench-$name-$$" AWS_REGION=${AWS_REGION:-us-east-1}
    export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-local} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-local}
    export BRANDLENS_KEY_SECRET=bench-key-secret-bench-key-secret-0001
    "$work/bl-$name" admin create-table >/dev/null
  fi
  # --create: revisions since the durable data directory want it for a new
  # store; older ones do not know the flag.
  "$work/bl-$name" admin seed --create "$work/seed.json" >/dev/null 2>&1 ||
    "$work/bl-$name" admin seed "$work/seed.json" >/dev/null
  "$work/bl-$name" admin synthetic-citations --tenant 1 --count 100000 >/dev/null
done
"$work/barehttp" --addr 127.0.0.1:18299 &
sleep 1
run() {
  echo "== $1"
  shift
  wrk -t2 -c"$conns" -d"$dur" --latency "$@" | grep -E 'Requests/sec|  50%|  99%|Non-2xx|Socket errors' || true
}
filter="platform=chatgpt&hasMention=true"
want() { [[ " ${ENDPOINTS:-me citations cursor} " == *" $1 "* ]]; }
run "bare net/http" http://127.0.0.1:18299/
port=18300
for name in "${names[@]}"; do
  port=$((port + 1))
  if [ "${BENCH_STORE:-}" = dynamodb ]; then export BRANDLENS_TABLE="bench-$name-$$"; fi
  BENCH_PPROF_ADDR=127.0.0.1:$((port + 100)) BRANDLENS_DATA_DIR="$work/data-$name" BRANDLENS_SCHEDULER_INTERVAL=0s \
    BRANDLENS_LOG_LEVEL=warn "$work/bl-$name" serve --addr 127.0.0.1:$port >"$work/serve-$name.log" 2>&1 &
  pid=$!
  for _ in $(seq 900); do curl -sf -o /dev/null -H "X-API-Key: $key" http://127.0.0.1:$port/api/v1/me && break; sleep 0.2; done
  base=http://127.0.0.1:$port/api/v1
  pprof=http://127.0.0.1:$((port + 100))/debug/pprof
  # profiled LABEL WRK-ARGS...: run, with a CPU profile under PROFILE=1.
  profiled() {
    local label=$1 ppid= out="$work/cpu-$name-$(echo "$1" | tr -c 'a-z0-9' _).pprof"
    shift
    if [ "${PROFILE:-}" = 1 ]; then
      (sleep 1 && curl -s -o "$out" "$pprof/profile?seconds=$(( ${dur%s} - 2 ))") &
      ppid=$!
    fi
    run "$name $label" "$@"
    if [ -n "$ppid" ]; then
      wait "$ppid"
      echo "-- $name CPU profile of $label (top, cumulative)"
      go tool pprof -top -cum -nodecount=30 "$work/bl-$name" "$out" 2>/dev/null | sed -n '1,40p' | cut -c1-160
    fi
  }
  want me && profiled "GET /api/v1/me" -H "X-API-Key: $key" $base/me
  want citations && profiled "citations $filter page 3 of 20" -H "X-API-Key: $key" "$base/citations?$filter&page=3&pageSize=20"
  if want cursor; then
    cursor=$(curl -s -H "X-API-Key: $key" "$base/citations?$filter&page=100&pageSize=100" | sed -n 's/.*"nextCursor":"\([^"]*\)".*/\1/p')
    if [ -n "$cursor" ]; then
      profiled "citations $filter cursor 10,000 deep" -H "X-API-Key: $key" "$base/citations?$filter&pageSize=20&cursor=$cursor"
    else
      echo "== $name: no cursor 10,000 matches deep"
    fi
  fi
  if [ "${PROFILE:-}" = 1 ]; then
    echo "-- $name heap: $(grep VmRSS /proc/$pid/status | tr -s ' \t' ' ')," \
      "$(curl -s "$pprof/heap?gc=1&debug=1" | grep -E '^# (HeapInuse|HeapObjects) =' | tr '\n' ' ')"
  fi
  kill $pid
  wait $pid 2>/dev/null || true
done
run "bare net/http (again)" http://127.0.0.1:18299/
