#!/usr/bin/env bash
# 2026-11-29, third stop (docs/results/tight/l1-issue.md): the L1 wavefronts against issue probe
# (l1_issue: cycles a warp load by shape and FFMAs a load), ncu's counters on each of its rows
# (warp instructions, requests, L1 wavefronts, bank conflicts), then the fresh naive set F
# (h200_f_groups.sh) measured with CUPTI counters after an L2 flush (fix_run.sh's measure step).
# usage: OUT=... bash l1_issue_run.sh DIR (DIR holds cbi.gz, l1_issue.gz, fix_run.sh, l_run.sh,
# h200_f_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); out=${OUT:?}; w=/tmp/l1i; mkdir -p $w
gunzip -c $src/l1_issue.gz > $w/l1_issue && chmod +x $w/l1_issue
log() { echo "$*" >> $out/probe-log.txt; }
log "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader) $(date -u)"
timeout 120 $w/l1_issue > $out/l1_issue.csv 2>> $out/probe-log.txt
log "l1_issue exit $? $(date -u +%T)"
M=smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_lg.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sector_hit_rate.pct,sm__cycles_elapsed.max,smsp__issue_active.avg.per_cycle_active
timeout 240 ncu --clock-control none --csv --print-units base --metrics $M \
  --log-file $out/l1_issue-ncu.csv $w/l1_issue --ncu > /dev/null 2>> $out/probe-log.txt
log "ncu exit $? $(date -u +%T)"
OUT=$out GROUPS_FILE=h200_f_groups.sh bash $src/l_run.sh $src measure . 300 > /dev/null 2>&1
log "measure exit $? $(date -u +%T)"
