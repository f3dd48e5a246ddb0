#!/usr/bin/env bash
# 2026-11-27, the first H100 lent since 2026-11-25 (docs/results/tight/h100-fresh.md): the L2
# partitions probe on the H100 (the h100 row's GPC map and sides were the H200's), a fresh tiled set
# (sgemm-tiled and stencil-smem under the 8 block orders at sizes never measured on the H100) and
# the fresh naive groups N1-N9 (h100_groups.sh), all measured with main's kernels; then the naive
# groups predicted with DIR/cbi and the h100 row on the machine's CPU cores in the time left.
#
# usage: OUT=... bash h100_fresh_run.sh DIR   (DIR: cbi, l2_parts, l2parts_run.sh, fix_run.sh,
#                                             h100_groups.sh). Results: $OUT/l2parts.tar.gz,
#                                             $OUT/fix.tar.gz, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
t0=$(date +%s)
TILED="sgemm-tiled --size 2560|sgemm-2560;sgemm-tiled --size 4608x3328 --depth 2816|sgemm-4608x3328d2816;\
sgemm-tiled --size 6656|sgemm-6656;stencil-smem --size 3584 --stencil 9x9|smem-3584;\
stencil-smem --size 4608x3328 --stencil 9x9|smem-4608x3328;stencil-smem --size 8960 --stencil 9x9|smem-8960" \
  NAIVE_GROUPS=h100_groups.sh DEADLINE=300 bash "$dir/l2parts_run.sh" "$dir"
left=$((560 - ($(date +%s) - t0)))
[ "$left" -gt 40 ] && GROUPS_FILE=h100_groups.sh DEVICE=h100 DEADLINE=$((left - 30)) \
  bash "$dir/fix_run.sh" "$dir" after
echo "h100_fresh_run: $(($(date +%s) - t0)) s"
