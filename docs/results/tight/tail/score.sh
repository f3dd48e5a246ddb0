#!/bin/bash
# Scores candidate CAND against main ("before") with fix_score.py on the groups given, in sampled
# mode (12 of 132 SMs) as pred.py predicted them (docs/results/tight/tail-float.md):
#   bash score.sh CAND GROUP... [> out.txt]     e.g. bash score.sh final Z1 Z2 W4
# GROUP's first letter names the set (z, w, x, v); CAND: A, ceil, r264, r830, final.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cand=$1
shift
for g in "$@"; do
  s=$(echo "${g:0:1}" | tr 'A-Z' 'a-z')
  ln -s "$here/$s/meas-$g.csv" "$tmp/"
  ln -s "$here/$s/pred-before-$g.csv" "$tmp/pred-before-$g.csv"
  ln -s "$here/$s/pred-$cand-$g.csv" "$tmp/pred-after-$g.csv"
done
python3 "$here/../fix_score.py" "$tmp"
