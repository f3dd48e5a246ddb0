#!/usr/bin/env bash
# 2026-11-28, sixth stop (docs/results/tight/miss-cost.md): the K set predicted full device on the
# device's CPU cores, after (cbi: l1_mixed_request_wavefronts) and before (cbi-before: main 8edd2e3).
# usage: OUT=... bash k_predict.sh DIR REGEX1 DEADLINE1 REGEX2 DEADLINE2 (DIR holds cbi.gz,
# cbi-before.gz, fix_run.sh, h200_k_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd)
dir=/tmp/kdir; mkdir -p $dir
cp $src/fix_run.sh $src/h200_k_groups.sh $dir/
for b in cbi cbi-before; do gunzip -c $src/$b.gz > $dir/$b && chmod +x $dir/$b; done
GROUPS_FILE=h200_k_groups.sh DEADLINE=$3 bash $dir/fix_run.sh $dir "after before" "$2"
GROUPS_FILE=h200_k_groups.sh DEADLINE=$5 bash $dir/fix_run.sh $dir "after before" "$4"
