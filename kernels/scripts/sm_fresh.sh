#!/usr/bin/env bash
# Issue 20, session `sm` (docs/results/tight/sm.md): the fresh validation set X1-X9 (sm_groups.sh),
# measured on the H200 after the last change to the GPU model and predicted by the model after the
# change (DIR/cbi) and before it (DIR/cbi-before, main), with fix_run.sh; then ncu's warp
# instructions of X1-X9's kernels at three orders, against the counts the model now takes.
#
# usage: bash sm_fresh.sh DIR   (DIR holds cbi, cbi-before, fix_run.sh, sm_groups.sh; results in
#   $OUT: fix.tar.gz and log.txt from fix_run.sh, inst.csv and inst-log.txt)
set -uo pipefail
dir=${1:?DIR}
out=${OUT:?}
GROUPS_FILE=sm_groups.sh DEADLINE=${DEADLINE:-420} bash $dir/fix_run.sh $dir "measure after before"
. $dir/sm_groups.sh
M=smsp__inst_executed.sum,sm__cycles_elapsed.max,gpu__time_duration.sum
for g in "${groups[@]}"; do
  IFS='|' read -r name kernel size stencil depth type block <<<"$g"
  args="--kernel $kernel --size $size --type $type --block $block --order linear,column:32,tile:16"
  [ "$stencil" != "-" ] && args="$args --stencil $stencil"
  [ "$depth" != "0" ] && args="$args --depth $depth"
  echo "=== $name: ncu cbi bench $args --no-time ($(date -u +%H:%M:%S))" >> $out/inst-log.txt
  # shellcheck disable=SC2086
  timeout 60 ncu --clock-control none --cache-control all --metrics $M --csv --print-units base \
    -k regex:_remap $dir/cbi bench $args --no-time > /tmp/inst-$name.csv 2>> $out/inst-log.txt
  echo "exit $?" >> $out/inst-log.txt
  grep '_remap' /tmp/inst-$name.csv | sed "s/^/$name,/" >> $out/inst.csv
done
echo "done $(date -u +%H:%M:%S)" >> $out/inst-log.txt
