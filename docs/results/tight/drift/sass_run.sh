#!/usr/bin/env bash
# Why linear and column:64 (the same tile order at 6144: 48 tile columns) read different DRAM bytes:
# the two kernels' global loads in SASS, and ncu's memory tables for each at 6144.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd); out=${OUT:?}
gunzip -c $dir/cbi.gz > /tmp/cbi && chmod +x /tmp/cbi
CU=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CU -sass /tmp/cbi > /tmp/sass.txt 2>/dev/null; echo "sass exit $? $(wc -l < /tmp/sass.txt) lines"
awk '/Function :/ {f=$3} f ~ /sgemm_tiled/ && /LDG|STG|BAR|LDS/ {print f": "$0}' /tmp/sass.txt | cut -c1-200 > $out/sass-sgemm.txt
grep -c LDG $out/sass-sgemm.txt
for o in linear column:64; do
  timeout 120 ncu --clock-control none --csv --print-units base --section MemoryWorkloadAnalysis_Tables --section MemoryWorkloadAnalysis_Chart -k regex:sgemm --launch-skip 1 --launch-count 1 \
    /tmp/cbi bench --no-check --min-samples 2 --kernel sgemm-tiled --size 6144 --block-order $o > $out/ncu-$o.csv 2> $out/ncu-$o.err
  echo "ncu $o exit $?"
done
