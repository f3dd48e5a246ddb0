# The fresh naive groups of 2026-11-29 (docs/results/tight/y-set.md): measured on the H200 after the
# last change to the GPU model (main 57b8bac: the smem stencil's measured instructions, which the
# naive kernels do not use), chose nothing; predicted with main's h200 row, and `cbi tune` (its
# default staged search) run on each group. Sizes, depths and blocks in no earlier document, all
# non-square but Y2; Y1 and Y7 have widths that are no multiple of 32 (warps straddle rows).
# Sourced by fix_run.sh and l_run.sh (GROUPS_FILE=h200_y_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "Y1|matmul|1000x1200|-|700|float|128"
  "Y2|matmul|1344x1344|-|1344|half|256"
  "Y3|matmul|1792x896|-|512|double|160"
  "Y4|matmul|1088x1856|-|416|float|448"
  "Y5|matmul|2240x704|-|896|half|96"
  "Y6|matmul|1536x1152|-|768|float|1024"
  "Y7|stencil|4000x3000|5x5|0|float|256"
  "Y8|stencil|3456x2592|9x9|0|half|640"
  "Y9|stencil|5760x1600|3x3|0|double|192"
  "Y10|stencil|2720x4320|11x11|0|float|320"
  "Y11|stencil|4160x2496|7x7|0|double|544"
)
