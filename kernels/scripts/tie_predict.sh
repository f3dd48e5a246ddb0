#!/usr/bin/env bash
# 2026-11-28, sixth stop (docs/results/tight/miss-cost.md §5): the H100 sets' stencil groups R7-R11
# and N6-N9 (measured 2026-11-27/28) predicted full device with l1_mixed_request_wavefronts, the
# h100 row, on the device's CPU cores, for the stencils' tie tolerance (tie_tolerance.py).
# usage: OUT=... bash tie_predict.sh DIR (DIR holds cbi.gz, fix_run.sh, h100_r_groups.sh, h100_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd)
dir=/tmp/kdir; mkdir -p $dir
cp $src/fix_run.sh $src/h100_r_groups.sh $src/h100_groups.sh $dir/
gunzip -c $src/cbi.gz > $dir/cbi && chmod +x $dir/cbi
DEVICE=h100 GROUPS_FILE=h100_r_groups.sh DEADLINE=170 bash $dir/fix_run.sh $dir after '^R(9|11|7|8|10)$'
mv $OUT/fix.tar.gz $OUT/r.tar.gz; rm -rf /tmp/fix
DEVICE=h100 GROUPS_FILE=h100_groups.sh DEADLINE=130 bash $dir/fix_run.sh $dir after '^N(7|6|8|9)$'
