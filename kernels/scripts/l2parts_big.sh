#!/usr/bin/env bash
# The SGEMM replays too large for the development machine: the H100 set's 8192 (after) and the
# fresh H200 set's 7168 (before, after), two host threads each, 8 at once (l2parts_predict.sh's
# function). usage: bash l2parts_big.sh DIR; rows in $OUT/big.tar.gz, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
export w=/tmp/pred; rm -rf $w; mkdir -p $w/tiled
exec > >(tee -a $OUT/log.txt) 2>&1
one() {
  local label=$1 bin=$2 device=$3 kernel=$4 size=$5 depth=$6 o=$7
  local start csv secs
  start=$(date +%s%N)
  csv=$("$bin" simulate --model gpu --device "$device" --kernel "$kernel" --size "$size" \
    --block-order "$o" --format csv --jobs 2) || { echo "failed: $label $size $o" >&2; return; }
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  echo "kernel,size,depth,block_order,sample_sms,model_seconds,$(head -1 <<<"$csv")" > "$w/tiled/$label.header"
  echo "$kernel,$size,$depth,$o,0,$secs,$(tail -1 <<<"$csv")" >> "$w/tiled/$label.rows"
  echo "$(date -u +%H:%M:%S) $label $kernel $size $o: $secs s"
}
export -f one
$dir/cbi --version | head -1; $dir/cbi-before --version | head -1
orders="linear column:4 column:8 column:16 column:64 tile:8x8 tile:1x8 zigzag:16"
{
  for o in $orders; do echo "h100-after $dir/cbi h100 sgemm-tiled 8192 0 $o"; done
  for o in $orders; do echo "fresh-after $dir/cbi h200 sgemm-tiled 7168 0 $o"; echo "fresh-before $dir/cbi-before h200 sgemm-tiled 7168 0 $o"; done
} | timeout 400 xargs -P 8 -L 1 bash -c 'one "$@"' _
for label in h100-after fresh-after fresh-before; do
  [ -s "$w/tiled/$label.rows" ] && cat "$w/tiled/$label.header" "$w/tiled/$label.rows" > "$w/tiled/$label.csv"
done
tar -C $w -czf $OUT/big.tar.gz .
