#!/usr/bin/env bash
# The GPU model's predictions for the tiled kernels under the 8 block orders that
# kernels/scripts/tight_h100_run1.sh measured: one CSV row per configuration
# (kernel,size,depth,block_order,sample_sms, then cbi simulate --model gpu's CSV columns).
# usage: predict_tiled.sh CBI OUT.csv DEVICE "SIZE[:DEPTH]:SAMPLE_SMS ..." KERNEL
#   SAMPLE_SMS 0 = the full device.
set -uo pipefail
cbi=$1; out=$2; device=$3; sizes=$4; kernel=$5
orders="linear column:4 column:8 column:16 column:64 tile:8x8 tile:1x8 zigzag:16"
for spec in $sizes; do
  IFS=: read -r size a b <<<"$spec"
  if [ -n "$b" ]; then depth=$a; sample=$b; else depth=0; sample=$a; fi
  for o in $orders; do
    args=(simulate --model gpu --device "$device" --kernel "$kernel" --size "$size" --block-order "$o" --format csv)
    [ "$kernel" = stencil-smem ] && args+=(--stencil 9x9)
    [ "$depth" != 0 ] && args+=(--depth "$depth")
    [ "$sample" != 0 ] && args+=(--sample-sms "$sample")
    start=$(date +%s.%N)
    csv=$("$cbi" "${args[@]}") || { echo "failed: ${args[*]}" >&2; continue; }
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    [ -s "$out" ] || echo "kernel,size,depth,block_order,sample_sms,model_seconds,$(head -1 <<<"$csv")" > "$out"
    echo "$kernel,$size,$depth,$o,$sample,$secs,$(tail -1 <<<"$csv")" >> "$out"
  done
done
