# The fresh naive groups of 2026-11-27 (docs/results/tight/h100-fresh.md): the first H100 lent since
# 2026-11-25, measured with main 776e8ed's kernels before any model change of the session, and
# predicted with the h100 row. Sizes, depths and blocks in no earlier document; half, float and
# double; stencil windows 3-11. Sourced by fix_run.sh (GROUPS_FILE=h100_groups.sh). One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "N1|matmul|1344x1024|-|640|float|256"
  "N2|matmul|1600x768|-|512|half|128"
  "N3|matmul|896x1728|-|800|double|384"
  "N4|matmul|2048x1152|-|448|float|512"
  "N5|matmul|1216x832|-|1088|half|1024"
  "N6|stencil|4864x2432|7x7|0|float|256"
  "N7|stencil|3840x3200|9x9|0|double|224"
  "N8|stencil|6400x1152|3x3|0|half|672"
  "N9|stencil|2816x4352|11x11|0|float|832"
)
