#!/usr/bin/env bash
# 2026-11-29, fourth stop (docs/results/tight/miss-lines.md §6): cbi tune on G2 and G5 (the groups
# whose predictions the h200 row's L2 read rates moved) with main 9a2a302 built for the device.
# usage: OUT=... bash tune_g25_run.sh   (in a folder holding cbi-final.gz and h200_g_groups.sh)
set -uo pipefail
w=/tmp/t; mkdir -p $w/out; gunzip -c cbi-final.gz > $w/cbi && chmod +x $w/cbi
. ./h200_g_groups.sh
for g in "${groups[@]}"; do
  IFS='|' read -r name kernel size stencil depth type block <<<"$g"
  case $name in G2|G5) ;; *) continue;; esac
  a="--kernel $kernel --size $size --type $type --block $block --depth $depth"
  timeout 100 /usr/bin/time -f "%e s wall" $w/cbi tune --device h200 --jobs $(nproc) $a --format json --output $OUT/tune-$name.json 2> $OUT/tune-$name.log
  echo "tune $name exit $?" >> $OUT/log.txt
done
