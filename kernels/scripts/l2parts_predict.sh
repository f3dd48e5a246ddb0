#!/usr/bin/env bash
# Issue 20, the L2 partition change (docs/results/tight/l2-partitions.md): the GPU model's
# predictions on the device machine's CPU cores, before (main's cbi) and after (this branch's):
#   1. the tiled set of tiled.md (H100 measurements, the data that chose the change), after only
#      (before: docs/results/tight/pred/tiled-main-2026-11-26/main.csv);
#   2. the fresh tiled set measured by l2parts_run.sh on the H200 (test data), before and after;
#   3. the fresh naive groups P1-P2 (l2part_groups.sh, test data), before and after;
#   4. the naive set W1-W9 of tails.md (tails_groups.sh), after (before: tails/combined/);
#   5. with time left, W1-W9 and P1-P2 under VARIANT_ENV (an environment setting of the branch's
#      experimental build, labelled VARIANT).
# usage: bash l2parts_predict.sh DIR   (DIR holds cbi, cbi-before, tails_groups.sh, l2part_groups.sh)
# Results in $OUT/pred.tar.gz (re-packed after each step) and $OUT/log.txt; no step starts after
# $DEADLINE seconds (default 500).
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
deadline=${DEADLINE:-500}
w=/tmp/pred; rm -rf $w; mkdir -p $w/tiled
exec > >(tee -a $out/log.txt) 2>&1
jobs=$(nproc)
t0=$(date +%s)
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S), $(($(date +%s) - t0)) s)"; }
late() { [ $(($(date +%s) - t0)) -gt "$deadline" ] && echo "deadline: $1 not run" && return 0; return 1; }
pack() { tar -C $w -czf $out/pred.tar.gz .; }
step "device, $jobs CPU cores"
$dir/cbi --version | head -1; $dir/cbi-before --version | head -1

# One tiled replay: label bin device kernel size depth order -> a row in $w/tiled/label.rows
one() {
  local label=$1 bin=$2 device=$3 kernel=$4 size=$5 depth=$6 o=$7
  local args=(simulate --model gpu --device "$device" --kernel "$kernel" --size "$size"
    --block-order "$o" --format csv --jobs 2)
  [ "$kernel" = stencil-smem ] && args+=(--stencil 9x9)
  [ "$depth" != 0 ] && args+=(--depth "$depth")
  local start csv secs
  start=$(date +%s%N)
  csv=$("$bin" "${args[@]}") || { echo "failed: $label ${args[*]}" >&2; return; }
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  echo "kernel,size,depth,block_order,sample_sms,model_seconds,$(head -1 <<<"$csv")" > "$w/tiled/$label.header"
  echo "$kernel,$size,$depth,$o,0,$secs,$(tail -1 <<<"$csv")" >> "$w/tiled/$label.rows"
  echo "$label $kernel $size $o: $secs s"
}
export -f one; export w
orders="linear column:4 column:8 column:16 column:64 tile:8x8 tile:1x8 zigzag:16"
list() { # label bin device, then "kernel size depth" lines on stdin
  while read -r kernel size depth; do
    for o in $orders; do echo "$1 $2 $3 $kernel $size $depth $o"; done
  done
}
# Two host threads a replay, half the cores' count at once: on 2026-11-26 16 one-thread replays at
# once took 480-594 s each for SGEMM 7168 (the call ran out of time), where 8 two-thread ones of
# SGEMM 8192 had taken 50-59 s (model-vs-tiled.md).
step "tiled: the H100 set (after) and the fresh H200 set (before, after), $((jobs / 2)) at once"
{
  list h100-after $dir/cbi h100 <<<"sgemm-tiled 8192 0"
  list fresh-after $dir/cbi h200 <<<"sgemm-tiled 7168 0"
  list fresh-before $dir/cbi-before h200 <<<"sgemm-tiled 7168 0"
  list h100-after $dir/cbi h100 <<<"sgemm-tiled 6144x4096 3072
sgemm-tiled 4096 0"
  list fresh-after $dir/cbi h200 <<<"stencil-smem 10240 0
sgemm-tiled 5120x2560 2048
sgemm-tiled 3072 0"
  list fresh-before $dir/cbi-before h200 <<<"stencil-smem 10240 0
sgemm-tiled 5120x2560 2048
sgemm-tiled 3072 0"
  list h100-after $dir/cbi h100 <<<"stencil-smem 8192 0
stencil-smem 12000x4000 0
sgemm-tiled 2048 0
stencil-smem 4096 0
stencil-smem 2048 0"
  list fresh-after $dir/cbi h200 <<<"stencil-smem 5120x2560 0
stencil-smem 3072 0"
  list fresh-before $dir/cbi-before h200 <<<"stencil-smem 5120x2560 0
stencil-smem 3072 0"
} | xargs -P $((jobs / 2)) -L 1 bash -c 'one "$@"' _
for label in h100-after fresh-after fresh-before; do
  [ -s "$w/tiled/$label.rows" ] && cat "$w/tiled/$label.header" "$w/tiled/$label.rows" > "$w/tiled/$label.csv"
done
pack

# The naive groups, as fix_run.sh predicts them.
orders_naive() { # WIDTH
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
args_of() {
  IFS='|' read -r name kernel size stencil depth type block <<<"$1"
  local a="--kernel $kernel --size $size --type $type --block $block --order $(orders_naive ${size%%x*})"
  [ "$stencil" != "-" ] && a="$a --stencil $stencil"
  [ "$depth" != "0" ] && a="$a --depth $depth"
  echo "$a"
}
sweep() { # label bin groups-file [env]
  local label=$1 bin=$2 file=$3 env=${4:-}
  . "$dir/$file"
  for g in "${groups[@]}"; do
    local name=${g%%|*}
    late "$label $name" && return
    local a t=$(date +%s); a=$(args_of "$g")
    mkdir -p $w/$label
    # shellcheck disable=SC2086
    env $env timeout 150 $bin sweep --model gpu --device h200 --jobs $jobs $a \
      --output $w/$label/pred-$name.csv 2> $w/$label/pred-$name.log
    echo "$label $name: exit $? $(($(date +%s) - t)) s"
  done
  pack
}
step "naive P1-P2 (before, after), W1-W9 (after)"
sweep p-after $dir/cbi l2part_groups.sh
sweep p-before $dir/cbi-before l2part_groups.sh
sweep w-after $dir/cbi tails_groups.sh
if [ -n "${VARIANT:-}" ]; then
  step "variant $VARIANT ($VARIANT_ENV)"
  sweep p-$VARIANT $dir/cbi l2part_groups.sh "$VARIANT_ENV"
  sweep w-$VARIANT $dir/cbi tails_groups.sh "$VARIANT_ENV"
fi
step "done"
pack
