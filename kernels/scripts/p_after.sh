#!/usr/bin/env bash
# 2026-11-28, sixth stop (docs/results/tight/miss-cost.md): K2-K5 before (main 8edd2e3), then the
# P set (l1-rate.md, measured 2026-11-28 fifth stop) after the change, full device on 16 CPUs.
# usage: OUT=... bash p_after.sh DIR (DIR holds cbi.gz, cbi-before.gz, fix_run.sh, h200_k_groups.sh,
# h200_p_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd)
dir=/tmp/kdir; mkdir -p $dir
cp $src/fix_run.sh $src/h200_k_groups.sh $src/h200_p_groups.sh $dir/
for b in cbi cbi-before; do gunzip -c $src/$b.gz > $dir/$b && chmod +x $dir/$b; done
GROUPS_FILE=h200_k_groups.sh DEADLINE=160 bash $dir/fix_run.sh $dir before '^K[2-5]$'
mv $OUT/fix.tar.gz $OUT/k-before.tar.gz; rm -rf /tmp/fix
GROUPS_FILE=h200_p_groups.sh DEADLINE=150 bash $dir/fix_run.sh $dir after '^P(7|8|9|10|11)$'
GROUPS_FILE=h200_p_groups.sh DEADLINE=120 bash $dir/fix_run.sh $dir after '^P(6|4|1|5)$'
