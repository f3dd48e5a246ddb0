#!/usr/bin/env bash
# 2026-11-29, fourth stop (docs/results/tight/miss-lines.md): the fresh set G (h200_g_groups.sh)
# measured (cbi sweep --backend gpu --metrics) and predicted, full device on the device's CPU
# cores, by one binary built with the rule under test behind CBI_EXP_MISS_LINE (0: main's model,
# 1: a line with sectors missing or on their way holds the L1 a cycle); then the set F's groups
# F6-F10 predicted with the rule (F1-F5 were predicted in the call before).
# usage: OUT=... bash g_run.sh DIR DEADLINE   (DIR holds cbi-exp.gz, h200_g_groups.sh,
#                                              h200_f_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); deadline=${2:-500}
w=/tmp/g; mkdir -p $w/out; gunzip -c $src/cbi-exp.gz > $w/cbi && chmod +x $w/cbi
orders() {
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
args_of() {
  IFS='|' read -r name kernel size stencil depth type block <<<"$1"
  local a="--kernel $kernel --size $size --type $type --block $block --order $(orders ${size%%x*})"
  [ "$stencil" != "-" ] && a="$a --stencil $stencil"
  [ "$depth" != "0" ] && a="$a --depth $depth"
  echo "$a"
}
t0=$(date +%s)
late() { [ $(($(date +%s) - t0)) -gt "$deadline" ] && echo "deadline: $1 not run" >> $OUT/log.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >> $OUT/log.txt
. $src/h200_g_groups.sh
for g in "${groups[@]}"; do
  name=${g%%|*}; a=$(args_of "$g"); t=$(date +%s)
  # shellcheck disable=SC2086
  timeout 100 $w/cbi sweep --backend gpu --metrics --no-check --max-seconds 0.2 $a \
    --output $w/out/meas-$name.csv 2> $w/out/meas-$name.log
  echo "measure $name exit $? $(($(date +%s) - t)) s ($a)" >> $OUT/log.txt
done
tar -C $w/out -czf $OUT/g.tar.gz .
predict() { # TAG C NAME ARGS
  local t=$(date +%s)
  # shellcheck disable=SC2086
  CBI_EXP_MISS_LINE=$2 timeout 150 $w/cbi sweep --model gpu --device h200 --jobs $(nproc) $4 \
    --output $w/out/pred-$1-$3.csv 2> $w/out/pred-$1-$3.log
  echo "$1 $3 exit $? $(($(date +%s) - t)) s" >> $OUT/log.txt
  tar -C $w/out -czf $OUT/g.tar.gz .
}
for g in "${groups[@]}"; do
  name=${g%%|*}; late "e1 $name" && continue; predict e1 1 $name "$(args_of "$g")"
done
for g in "${groups[@]}"; do
  name=${g%%|*}; late "main $name" && continue; predict main 0 $name "$(args_of "$g")"
done
. $src/h200_f_groups.sh
for g in "${groups[@]:5}"; do
  name=${g%%|*}; late "e1 $name" && continue; predict e1 1 $name "$(args_of "$g")"
done
echo "done $(date -u +%T)" >> $OUT/log.txt
