#!/usr/bin/env bash
# The DRAM read/write mix probe (kernels/probes/dram_rw.cu, docs/results/tight/dram-rw.md): event
# times of read-only, write-only and mixed streams over 512 MiB arrays, then one launch of each mix
# under ncu (DRAM bytes read and written, DRAM's share of its peak), so that the bytes the probe
# counts are known to be the bytes DRAM moved.
# usage: OUT=... bash dram_rw_run.sh DIR   (DIR holds dram_rw). Results: $OUT/dram_rw.csv,
#        $OUT/dram_rw-ncu.csv, $OUT/stencils-ncu.csv
#        (with DIR/cbi: ncu on two stencils that write what they read), $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
echo "=== device ($(date -u +%H:%M:%S))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
echo "=== dram_rw ($(date -u +%H:%M:%S))"
timeout 200 $dir/dram_rw > $out/dram_rw.csv; rc=$?; echo "exit $rc"
cat $out/dram_rw.csv
echo "=== ncu ($(date -u +%H:%M:%S))"
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
timeout 200 ncu --clock-control none --csv --print-units base --metrics $M --log-file $out/dram_rw-ncu.csv \
  $dir/dram_rw --ncu > /dev/null; echo "ncu exit $?"
# The stencils that write as much as they read, first launch each (CPU check skipped under ncu):
# the shared-memory 9x9 float stencil and the naive double 3x3 (Q10) at linear.
if [ -x "$dir/cbi" ]; then
  for a in "stencil-smem --size 8192 --stencil 9x9 --type float" "stencil-smem --size 4096 --stencil 9x9 --type float" \
           "stencil --size 2560x5120 --stencil 3x3 --type double --block 896" \
           "stencil --size 4096 --stencil 3x3 --type float --block 256"; do
    # shellcheck disable=SC2086
    timeout 60 ncu --clock-control none --csv --print-units base --metrics $M -k regex:stencil \
      --launch-count 1 --log-file /tmp/ncu.csv "$dir/cbi" bench --no-check --min-samples 1 --kernel $a \
      > /tmp/ncu.out 2>&1; echo "ncu $a: exit $?"
    grep '^"' /tmp/ncu.csv | sed "s/^/\"$a\",/" >> $out/stencils-ncu.csv
  done
fi
echo "=== done ($(date -u +%H:%M:%S))"
exit $rc
