#!/usr/bin/env bash
# Cold start of the API bootstrap (issue figures, not a test): the
# functions/api bootstrap of each git revision (or `.`, the working tree),
# built as the Makefile builds it for this machine, is started under a local
# fake of the Lambda runtime API and answers GET /api/v1/me
# (BenchmarkColdStartAPIProcess of shared/app, on DynamoDB Local). The
# revisions take turns, ROUNDS times, so that they share the machine's load.
#   tools/bench-coldstart.sh REV...      e.g. tools/bench-coldstart.sh main .
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/benchcold.XXXX)
trap 'rm -rf "$work"' EXIT
i=0
bins=()
for rev in "$@"; do
  i=$((i + 1))
  src="$work/src-$i"
  "$repo/tools/checkout-rev.sh" "$rev" "$src"
  (cd "$src" && CGO_ENABLED=0 go build -tags lambda.norpc,brandlens.lambda -trimpath -ldflags='-s -w' -o "$work/bootstrap-$i" ./functions/api)
  rm -rf "$src"
  echo "r$i = $rev: $(stat -c %s "$work/bootstrap-$i") bytes"
  bins+=("$work/bootstrap-$i")
done
for round in $(seq "${ROUNDS:-3}"); do
  i=0
  for bin in "${bins[@]}"; do
    i=$((i + 1))
    printf 'round %s r%s: ' "$round" "$i"
    (cd "$repo" && BRANDLENS_COLDSTART_BOOTSTRAP="$bin" go test -count=1 -run '^$' -bench 'ColdStartAPIProcess$' \
      -benchtime="${TIMES:-10}x" ./shared/app | grep -E '^Benchmark' | cut -f3- | tr -s ' \t' ' ')
  done
done
