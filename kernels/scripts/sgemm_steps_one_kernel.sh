#!/usr/bin/env bash
# 2026-11-29 call 5 (docs/results/tight/y-set.md §7): the sgemm_steps probe on the one SGEMM kernel
# (every block order one kernel since y-set.md §4): a CTA alone on its SM, two sharing an SM for one
# wave, and 8192^3 in linear and column:16 (the drift), as drift.md §1 ran it on the per-order kernels.
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd); out=${OUT:?}; w=/tmp/c5; mkdir -p $w/steps
gunzip -c $d/sgemm_steps.gz > $w/sgemm_steps && chmod +x $w/sgemm_steps
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee $out/c5-log.txt
timeout 240 $w/sgemm_steps $w/steps 1408 1536 32768 linear 1408 3072 32768 linear \
  1408 3072 32768 column:16 8192 8192 8192 linear 8192 8192 8192 column:16 2>&1 | tee -a $out/c5-log.txt
echo "probe exit $? $(date -u +%T)" | tee -a $out/c5-log.txt
tar -C $w -czf $out/c5.tar.gz steps
