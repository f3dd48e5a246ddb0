#!/usr/bin/env bash
# 2026-11-29, third stop (docs/results/tight/l1-issue.md §4): the SASS of the naive matmul for half
# and float (linear), from main's cbi (cbi-before.gz).
# usage: OUT=... bash sass_half_matmul.sh   (in a folder holding cbi-before.gz)
set -uo pipefail
w=/tmp/ss; mkdir -p $w; gunzip -c cbi-before.gz > $w/cbi
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ -sass $w/cbi > $w/all.sass 2>/dev/null; echo "cuobjdump exit $?"
grep "Function : .*matmul_remap" $w/all.sass | head -40 > $OUT/matmul-functions.txt
awk '/Function : .*matmul_remapI6__half.*Linear6Params/{f=1} f&&/Function : / && !/matmul_remapI6__half.*Linear6Params/{f=0} f' $w/all.sass > $OUT/sass-matmul-half-linear.txt
awk '/Function : .*matmul_remapIf.*Linear6Params/{f=1} f&&/Function : / && !/matmul_remapIf.*Linear6Params/{f=0} f' $w/all.sass > $OUT/sass-matmul-float-linear.txt
wc -l $OUT/*.txt
