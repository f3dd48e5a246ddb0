#!/usr/bin/env bash
# 2026-11-28, sixth stop (docs/results/tight/miss-cost.md): why the double stencils run 16-34%
# slower than the model's L1-wavefront replay, more so the more they miss (P10), and why the half
# matmul's column orders run faster than predicted (P6). ncu on the first launch of each order
# (cbi bench, no CPU check, the L2 not flushed), with the L1TEX counters this ncu offers beside
# the known ones; then measures the fresh K set (h200_k_groups.sh) before any model change.
# usage: OUT=... bash miss_cost_run.sh DIR  (DIR holds cbi, fix_run.sh, h200_k_groups.sh)
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
echo "=== $(date -u +%H:%M:%S) query"
ncu --query-metrics --chip gh100 > /tmp/metrics.txt 2>&1; echo "query exit $?"
grep -E '^(l1tex__|lsu|smsp__l1tex)' /tmp/metrics.txt | gzip > $out/l1tex-metrics.txt.gz
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
M=$M,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active
M=$M,l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_active
M=$M,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_active
M=$M,l1tex__f_wavefronts.avg.pct_of_peak_sustained_active
M=$M,l1tex__m_xbar2l1tex_read_sectors.avg.pct_of_peak_sustained_active
# Candidates: kept only where a tiny run accepts them alone.
tiny="--kernel stencil --size 512x512 --stencil 3x3 --type double --block 256 --order linear"
for c in l1tex__t_requests_pipe_lsu_mem_global_op_ld_lookup_miss.sum \
  l1tex__t_requests_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
  l1tex__m_l1tex2xbar_req.sum l1tex__m_xbar2l1tex_read_bytes.sum \
  l1tex__lsu_writeback_active.sum l1tex__lsu_writeback_active_mem_lg.sum \
  l1tex__f_wavefronts.sum l1tex__f_sectors.sum l1tex__data_pipe_lsu_wavefronts.sum \
  l1tex__data_pipe_lsu_wavefronts_mem_lg.sum l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum \
  l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write.sum l1tex__data_bank_reads.sum \
  l1tex__data_bank_writes.sum l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum \
  l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum l1tex__t_set_conflicts_pipe_lsu_mem_global_op_ld.sum \
  l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum l1tex__lsuin_requests.sum \
  l1tex__t_wavefronts.sum l1tex__m_wavefronts.sum l1tex__t_sectors_miss.sum \
  l1tex__texin_requests.sum l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_fill.sum; do
  timeout 30 ncu --clock-control none --metrics $c -k regex:remap --launch-count 1 \
    "$dir/cbi" bench --no-check --min-samples 1 $tiny > /tmp/cand.out 2>&1
  if [ $? -eq 0 ] && ! grep -q -E 'ERROR|Failed|n/a' /tmp/cand.out; then M=$M,$c; echo "ok $c"
  else echo "no $c: $(grep -m1 -E 'ERROR|n/a' /tmp/cand.out)"; fi
done
echo "metrics: $M"
one() { # label, then cbi bench arguments
  local label=$1; shift
  timeout 90 ncu --clock-control none --csv --print-units base --metrics $M -k regex:remap \
    --launch-count 1 --log-file /tmp/ncu-$label.csv "$dir/cbi" bench --no-check --min-samples 1 "$@" \
    > /tmp/ncu-$label.out 2>&1
  echo "$label: exit $? $(date -u +%H:%M:%S)"; tail -2 /tmp/ncu-$label.out
  grep '^"' /tmp/ncu-$label.csv | sed "s/^/\"$label\",/" >> $out/ncu.csv
}
# Measure K first (clean, before any ncu run), then profile.
echo "=== $(date -u +%H:%M:%S) measure K"
GROUPS_FILE=h200_k_groups.sh DEADLINE=200 bash "$dir/fix_run.sh" "$dir" measure
mv $out/fix.tar.gz $out/k-meas.tar.gz
echo "=== $(date -u +%H:%M:%S) ncu"
for o in linear column:4 column:8 column:16 column:32 column:64 column:128 column:256 column:512 \
  column:1024 tile:16 tile:32x8 zigzag:32 zigzag:64; do
  one "P10-$o" --kernel stencil --size 4864x2048 --stencil 9x9 --type double --block 288 --order $o
done
for o in linear column:8 column:32 column:256 tile:16; do
  one "P8-$o" --kernel stencil --size 3200x3712 --stencil 5x5 --type double --block 192 --order $o
done
for o in linear column:32 column:256; do
  one "P11-$o" --kernel stencil --size 3456x3072 --stencil 11x11 --type float --block 224 --order $o
done
for o in linear column:8 column:32 column:128 tile:16 tile:32x8; do
  one "P6-$o" --kernel matmul --size 1792x768 --depth 832 --type half --block 96 --order $o
done
echo "=== done $(date -u +%H:%M:%S)"
