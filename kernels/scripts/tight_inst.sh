#!/usr/bin/env bash
# Issue 20 §2, the held-out set's time misses: how many warp instructions the naive kernels execute
# and at what issue rate, per held-out group (docs/results/tight/heldout-scores.md §4), against the
# GPU model's instruction-issue bound (its count: FMAs + loads x (1 + address ops per load) + the
# remap's instructions + 3 per thread, issued at 2.75 per SM per cycle).
#
# usage: bash tight_inst.sh DIR   (DIR holds bin/cbi; the kernels' rows in $OUT/inst.csv, every
# ncu CSV and log in $OUT/inst-raw.tar.gz)
set -uo pipefail
dir=${1:?DIR}
cbi=$dir/bin/cbi
out=${OUT:?}
M=smsp__inst_executed.sum,smsp__issue_active.avg.per_cycle_active,sm__cycles_elapsed.max,\
gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
. "$(dirname "$0")/tight_groups.sh" # groups=(name|kernel|WxH|stencil|depth|type|block ...)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; ncu --version | tail -1
for g in "${groups[@]}"; do
  IFS='|' read -r name kernel size stencil depth type block <<<"$g"
  for order in linear column:32; do
    args="--kernel $kernel --size $size --type $type --block $block --order $order --no-time"
    [ "$stencil" != "-" ] && args="$args --stencil $stencil"
    [ "$depth" != "0" ] && args="$args --depth $depth"
    echo "=== $name $order: cbi bench $args ($(date -u +%H:%M:%S))"
    # shellcheck disable=SC2086
    timeout 60 ncu --clock-control none --cache-control all --metrics $M --csv --print-units base \
      $cbi bench $args --format csv > /tmp/inst-$name-$order.csv 2> /tmp/inst-$name-$order.log
    echo "exit $?"
    # The metric rows of the bench kernels (named after their workload), tagged with the group.
    grep -i "$kernel" /tmp/inst-$name-$order.csv | grep -v "^==" | sed "s/^/$name,$order,/" \
      >> $out/inst.csv
  done
done
tar -C /tmp -czf $out/inst-raw.tar.gz $(cd /tmp && ls inst-*)
