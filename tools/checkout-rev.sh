#!/usr/bin/env bash
# Writes the sources of git revision REV — or, for `.`, the working tree as
# it is (untracked files included) — into DIR, for the benchmarks that
# build several revisions side by side. Usage: tools/checkout-rev.sh REV DIR
set -euo pipefail
rev=$1
dir=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
if [ "$rev" = . ]; then
  (cd "$repo" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$dir" 2>/dev/null || true)
else
  git -C "$repo" archive "$rev" | tar -x -C "$dir"
fi
