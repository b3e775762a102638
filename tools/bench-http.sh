#!/usr/bin/env bash
# HTTP benchmark (issue figures, not a test): wrk against `brandlens serve`
# for GET /api/v1/me and a filtered citations page over 100,000 seeded
# citations, beside a bare net/http handler, in one run on this machine.
# Needs wrk (Debian package). Usage: tools/bench-http.sh [duration] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
dur=${1:-15s}
conns=${2:-32}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/brandlens" ./cmd/brandlens
go build -o "$work/barehttp" ./tools/barehttp
key=local-key-bench-publish-00001
cat > "$work/seed.json" <<JSON
{"tenants":[{"name":"Bench","credits":1000,"rpmLimit":100000000,
 "brand":{"name":"Acme Notes","aliases":["AcmeNotes"],"domains":["acmenotes.com"]},
 "competitors":[{"name":"Notion"},{"name":"Evernote"}],
 "queries":[{"text":"best note taking app"},{"text":"notes for teams"},{"text":"evernote alternatives"}],
 "apiKeys":[{"key":"$key","scopes":["publish"]}]}]}
JSON
export BRANDLENS_DATA_DIR="$work/data"
"$work/brandlens" admin seed "$work/seed.json" >/dev/null
echo "seeding 100000 citations…"
"$work/brandlens" admin synthetic-citations --tenant 1 --count 100000 >/dev/null
BRANDLENS_LOG_LEVEL=warn "$work/brandlens" serve --addr 127.0.0.1:18180 >/dev/null &
"$work/barehttp" --addr 127.0.0.1:18181 &
sleep 2
run() {
  echo "== $1"
  shift
  wrk -t2 -c"$conns" -d"$dur" --latency "$@" | grep -E 'Requests/sec|Latency  |  50%|  99%|Non-2xx'
}
run "bare net/http handler" http://127.0.0.1:18181/
run "GET /api/v1/me" -H "X-API-Key: $key" http://127.0.0.1:18180/api/v1/me
run "GET /api/v1/citations?platform=chatgpt&hasMention=true&page=3&pageSize=20" -H "X-API-Key: $key" \
  "http://127.0.0.1:18180/api/v1/citations?platform=chatgpt&hasMention=true&page=3&pageSize=20"
