# The fresh naive groups of 2026-11-28, third stop (docs/results/tight/dram-rw.md §4): measured on the
# H200 (the only device lent that day) with main's kernels, after the last change to the GPU model
# (l2_coalesce_max_reads, lrc-cap.md), and predicted with the h200 row. Sizes, depths and blocks in
# no earlier document, all non-square; half, float and double; stencil windows 3-11. Sourced by
# fix_run.sh (GROUPS_FILE=h200_t_groups.sh). One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "T1|matmul|1600x1216|-|480|float|256"
  "T2|matmul|1344x960|-|832|half|128"
  "T3|matmul|1216x1472|-|448|double|512"
  "T4|matmul|2112x832|-|640|float|768"
  "T5|matmul|896x1856|-|576|half|384"
  "T6|matmul|1536x1344|-|320|double|192"
  "T7|stencil|3712x2816|5x5|0|half|224"
  "T8|stencil|4608x2880|3x3|0|float|512"
  "T9|stencil|3200x3072|9x9|0|double|320"
  "T10|stencil|5632x1792|7x7|0|float|640"
  "T11|stencil|2880x4480|11x11|0|double|128"
)
