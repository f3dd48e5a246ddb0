#!/usr/bin/env bash
# 2026-11-28, fourth stop (docs/results/tight/slide.md): the float matmul groups measured earlier
# (H100: Q1, Q4 of h100_q_groups.sh, R1, R4 of h100_r_groups.sh, N1, N4 of h100_groups.sh; H200: T1,
# T4 of h200_t_groups.sh) predicted on the full device with the sliding window (cbi) and without
# it (cbi-before), through fix_run.sh, on the device machine's CPU cores.
# usage: bash slide_float_predict.sh DIR [STEPS]   (DIR: cbi, cbi-before, fix_run.sh and the group
#   files; STEPS: fix_run.sh's, default "after before"; U1-U3 of h200_u_groups.sh with "after")
set -uo pipefail
dir=${1:?DIR}
steps=${2:-after before}
: "${OUT:?}"
t0=$(date +%s)
left() { echo $((${BUDGET:-560} - ($(date +%s) - t0))); }
specs=("h100_q_groups.sh h100 ^(Q1|Q4)$" "h100_r_groups.sh h100 ^(R1|R4)$" \
  "h100_groups.sh h100 ^(N1|N4)$" "h200_t_groups.sh h200 ^(T1|T4)$")
[[ " $steps " == *" after "* ]] && specs=("h200_u_groups.sh h200 ^(U1|U2|U3)$" "${specs[@]}")
for spec in "${specs[@]}"; do
  read -r file device regex <<<"$spec"
  GROUPS_FILE=$file DEVICE=$device DEADLINE=$(left) bash "$dir/fix_run.sh" "$dir" "$steps" "$regex"
done
