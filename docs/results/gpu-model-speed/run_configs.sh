#!/bin/bash
# run_configs.sh CBI OUTDIR MODE JOBS < SPECS: runs `cbi simulate --model gpu --device h100` for each
# spec line "kernel size stencil type block order" (as in docs/results/gpu-model-h100/
# pred-vs-meas.csv), JOBS at once, each on one host thread (--jobs 1); MODE: full, or the number of
# sampled SMs. Writes OUTDIR/<n>.csv per configuration as it finishes (spec, L1 hit %, L2 read
# sectors, predicted ms, bound, wall s, user s, peak RSS KiB, 1-minute load before it started);
# cat OUTDIR/*.csv joins them.
CBI=$1 OUT=$2 MODE=$3 JOBS=$4
mkdir -p "$OUT"
one() {
  n=$1 kernel=$2 size=$3 stencil=$4 type=$5 block=$6 order=$7
  args="--workload $kernel --size $size --order $order --block $block --format json --jobs 1"
  [ "$kernel" = stencil ] && args="$args --stencil $stencil"
  [ "$type" = half ] && args="$args --elem-bytes 2"
  [ "$type" = double ] && args="$args --elem-bytes 8"
  [ "$MODE" != full ] && args="$args --sample-sms $MODE"
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e,%U,%M" -o "$OUT/$n.time" "$CBI" simulate --model gpu --device h100 $args \
    > "$OUT/$n.json" || { echo "failed: $args" >&2; return; }
  python3 - "$OUT/$n.json" > "$OUT/$n.csv" <<PY
import json, sys
d = json.load(open(sys.argv[1])); m = d['metrics']
print('$kernel,$size,$stencil,$type,$block,$order,$MODE,%.4f,%d,%.6f,%s,%s,$load' % (
    m['l1tex__t_sector_hit_rate.pct'], m['lts__t_sectors_srcunit_tex_op_read.sum'],
    d['predicted_ms'], d.get('bound', ''), open('$OUT/$n.time').read().strip()))
PY
  rm -f "$OUT/$n.json" "$OUT/$n.time"
}
export -f one
export CBI OUT MODE
awk '{print NR, $0}' | xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _
