#!/usr/bin/env bash
# Runs a benchmark in alternating rounds on this checkout and on another one (a worktree of the
# commit to compare with, with its own `npm ci`), so both see the same machine at nearly the same
# moments, and prints each round's ratio lines side by side.
#
#   git worktree add --detach ../baseline main && (cd ../baseline && npm ci)
#   bash scripts/bench-against.sh ../baseline bench:manifest 3
#
# Each run is one round of the benchmark (BENCH_ROUNDS=1); the full output of every run is kept
# under ${BENCH_AGAINST_LOGS:-/tmp/bench-against}.
set -euo pipefail

other="$(cd "${1:?usage: bench-against.sh <other checkout> <npm script> [rounds]}" && pwd)"
script="${2:?npm script, e.g. bench:manifest}"
rounds="${3:-3}"
here="$(cd "$(dirname "$0")/.." && pwd)"
logs="${BENCH_AGAINST_LOGS:-/tmp/bench-against}"
mkdir -p "$logs"

for round in $(seq 1 "$rounds"); do
  # The other checkout first in odd rounds, this one first in even rounds: drift favours neither.
  if ((round % 2 == 1)); then order=("$other" "$here"); else order=("$here" "$other"); fi
  for dir in "${order[@]}"; do
    name="$([[ "$dir" == "$here" ]] && echo this || echo other)"
    log="$logs/$name-$round.log"
    echo "round $round: $name ($dir)" >&2
    (cd "$dir" && BENCH_ROUNDS=1 npm run --silent "$script") >"$log" 2>&1 || echo "  $name exited $? (see $log)" >&2
    grep -E "round 1 ratios" "$log" | sed "s/^ */$name round $round: /" || true
  done
done
