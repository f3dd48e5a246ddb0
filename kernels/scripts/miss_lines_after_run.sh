#!/usr/bin/env bash
# 2026-11-29, fourth stop (docs/results/tight/miss-lines.md): with the landed rule
# (l1_miss_lines_per_cycle 1), F6-F10 predicted (full device, the device's CPU cores) and
# `cbi tune` on each group of G as a user runs it (its default search), so that its pick and tie
# group are scored against G's measurement.
# usage: OUT=... bash miss_lines_after_run.sh DIR DEADLINE   (DIR holds cbi-miss.gz,
#                                                             h200_f_groups.sh, h200_g_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); deadline=${2:-430}
w=/tmp/ma; mkdir -p $w/out; gunzip -c $src/cbi-miss.gz > $w/cbi && chmod +x $w/cbi
orders() {
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
axes() { # group entry -> cbi axes (no --order)
  IFS='|' read -r name kernel size stencil depth type block <<<"$1"
  local a="--kernel $kernel --size $size --type $type --block $block"
  [ "$stencil" != "-" ] && a="$a --stencil $stencil"
  [ "$depth" != "0" ] && a="$a --depth $depth"
  echo "$a"
}
t0=$(date +%s)
late() { [ $(($(date +%s) - t0)) -gt "$deadline" ] && echo "deadline: $1 not run" >> $OUT/log.txt; }
. $src/h200_f_groups.sh
for g in "${groups[@]:5}"; do
  name=${g%%|*}; late "F $name" && continue; t=$(date +%s); size=$(echo "$g" | cut -d'|' -f3)
  # shellcheck disable=SC2086
  timeout 150 $w/cbi sweep --model gpu --device h200 --jobs $(nproc) $(axes "$g") \
    --order $(orders ${size%%x*}) --output $w/out/pred-miss-$name.csv 2> $w/out/pred-miss-$name.log
  echo "predict $name exit $? $(($(date +%s) - t)) s" >> $OUT/log.txt
  tar -C $w/out -czf $OUT/after.tar.gz .
done
. $src/h200_g_groups.sh
for g in "${groups[@]}"; do
  name=${g%%|*}; late "tune $name" && continue; t=$(date +%s)
  # shellcheck disable=SC2086
  timeout 150 /usr/bin/time -f "%e s wall %U s user %M KB" $w/cbi tune --device h200 \
    --jobs $(nproc) $(axes "$g") --format json --output $w/out/tune-$name.json \
    2> $w/out/tune-$name.log
  echo "tune $name exit $? $(($(date +%s) - t)) s" >> $OUT/log.txt
  tar -C $w/out -czf $OUT/after.tar.gz .
done
echo "done $(date -u +%T)" >> $OUT/log.txt
