#!/usr/bin/env bash
# The GPU model's predictions for every tiled configuration that tiled.md measured on the H100 (the
# two kernels at 2048, 4096, 8192 and the non-square size, the 8 block orders), on the full device,
# JOBS replays at once, one host thread each (a replay gives the same prediction on any thread
# count). With CBI_BEFORE: also the model before the change (main's cbi) for the SGEMM sizes it
# never predicted at 4096 and 6144x4096, after the others. The longest replays start first.
# One CSV row per configuration, as predict_tiled.sh writes them
# (kernel,size,depth,block_order,sample_sms,model_seconds, then cbi simulate --model gpu's
# columns), appended to OUTDIR/LABEL.rows as each replay ends (so that a call cut short keeps what
# ended), and OUTDIR/LABEL.csv with the header once all have ended.
#
# usage: predict_tiled_all.sh CBI OUTDIR DEVICE JOBS [CBI_BEFORE [SET]]
#   SET: a file of "kernel size depth" lines, longest first, predicted with CBI (and with CBI_BEFORE
#   where given and not "-") instead of tiled.md's H100 set (h100-fresh.md's set: h100_fresh_tiled.txt).
set -uo pipefail
cbi=$1; outdir=$2; device=$3; jobs=$4; before=${5:-}; set=${6:-}
[ "$before" = - ] && before=""
orders="linear column:4 column:8 column:16 column:64 tile:8x8 tile:1x8 zigzag:16"
one() { # label cbi kernel size depth order -> a row in $outdir/label.rows
  local label=$1 bin=$2 kernel=$3 size=$4 depth=$5 o=$6
  local args=(simulate --model gpu --jobs 1 --device "$device" --kernel "$kernel" --size "$size"
    --block-order "$o" --format csv)
  [ "$kernel" = stencil-smem ] && args+=(--stencil 9x9)
  [ "$depth" != 0 ] && args+=(--depth "$depth")
  local start csv secs
  start=$(date +%s%N)
  csv=$("$bin" "${args[@]}") || { echo "failed: $label ${args[*]}" >&2; return; }
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') # no bc there
  echo "kernel,size,depth,block_order,sample_sms,model_seconds,$(head -1 <<<"$csv")" > "$outdir/$label.header"
  echo "$kernel,$size,$depth,$o,0,$secs,$(tail -1 <<<"$csv")" >> "$outdir/$label.rows"
  echo "$label $kernel $size $o: $secs s"
}
export -f one; export device outdir
list() { # label cbi, then "kernel size depth" lines on stdin
  while read -r kernel size depth; do
    for o in $orders; do echo "$1 $2 $kernel $size $depth $o"; done
  done
}
if [ -n "$set" ]; then
  { list after "$cbi" <"$set"; [ -n "$before" ] && list before "$before" <"$set"; } |
    xargs -P "$jobs" -L 1 bash -c 'one "$@"' _
else {
  list after "$cbi" <<<"sgemm-tiled 8192 0"
  list after "$cbi" <<<"sgemm-tiled 6144x4096 3072
sgemm-tiled 4096 0
stencil-smem 8192 0
stencil-smem 12000x4000 0
sgemm-tiled 2048 0
stencil-smem 4096 0
stencil-smem 2048 0"
  [ -n "$before" ] && list before "$before" <<<"sgemm-tiled 4096 0
sgemm-tiled 6144x4096 3072"
} | xargs -P "$jobs" -L 1 bash -c 'one "$@"' _
fi
for label in after before; do # (an if, not &&: a missing "before" must not be the exit status)
  if [ -s "$outdir/$label.rows" ]; then cat "$outdir/$label.header" "$outdir/$label.rows" > "$outdir/$label.csv"; fi
done
