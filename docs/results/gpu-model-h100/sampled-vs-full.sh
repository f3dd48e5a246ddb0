#!/usr/bin/env bash
B=/work/wt/lead/build/bin/cbi
echo "workload,order,mode,l1_hit_pct,l2_sectors,predicted_ms,seconds"
for cfg in "matmul linear" "matmul column:32" "matmul column:128" "matmul column:256" "matmul tile:16" "stencil linear" "stencil column:8" "stencil column:32"; do
  set -- $cfg
  if [ $1 = matmul ]; then a="--workload matmul --size 1024"; else a="--workload stencil --size 4096 --stencil 9x9"; fi
  for mode in full 12; do
    extra=""; [ $mode != full ] && extra="--sample-sms $mode"
    s=$(date +%s.%N)
    $B simulate --model gpu --device h100 --block 256 $a --order $2 $extra --format json 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); m=d['metrics']
print('$1,$2,$mode,%.3f,%d,%.5f'%(m['l1tex__t_sector_hit_rate.pct'],m['lts__t_sectors_srcunit_tex_op_read.sum'],d['predicted_ms']),end='')"
    echo ",$(echo "$(date +%s.%N) - $s" | bc)"
  done
done
