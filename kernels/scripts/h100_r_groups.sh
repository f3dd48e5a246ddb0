# The fresh naive groups of 2026-11-28 (docs/results/tight/l2-bw.md): measured on the H100 with main's
# kernels after the L2 read change (the last change to the GPU model), and predicted with the h100
# row. Sizes, depths and blocks in no earlier document; half, float and double; stencil windows
# 3-11. Sourced by fix_run.sh (GROUPS_FILE=h100_r_groups.sh). One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "R1|matmul|1728x1152|-|704|float|256"
  "R2|matmul|1280x1600|-|448|half|384"
  "R3|matmul|1024x1856|-|576|double|192"
  "R4|matmul|2176x896|-|832|float|640"
  "R5|matmul|1536x1024|-|1216|half|64"
  "R6|matmul|832x2048|-|384|double|512"
  "R7|stencil|5376x2048|7x7|0|half|320"
  "R8|stencil|3072x3840|5x5|0|float|736"
  "R9|stencil|6656x1408|9x9|0|double|128"
  "R10|stencil|4096x2560|3x3|0|float|1024"
  "R11|stencil|2944x3712|11x11|0|double|256"
)
