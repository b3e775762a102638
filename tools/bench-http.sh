#!/usr/bin/env bash
# HTTP benchmark of the working tree (issue figures, not a test): wrk
# against `brandlens serve` — GET /api/v1/me, the filtered citations page
# over 100,000 citations and a cursor read 10,000 matches deep — beside a
# bare net/http handler, in one run on this machine. Needs wrk (Debian
# package). Usage: tools/bench-http.sh [duration] [connections]; to compare
# revisions side by side, tools/bench-revs.sh.
exec "$(dirname "$0")/bench-revs.sh" "${1:-15s}" "${2:-32}" .
