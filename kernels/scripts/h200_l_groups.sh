# The fresh naive groups of 2026-11-28, seventh stop: measured on the H200 after the last change to
# the GPU model (c4cecd8, l1_mixed_request_wavefronts; main 9099cd2), chose nothing; predicted with
# main's h200 row, and `cbi tune` (its default staged search) run on each group. Sizes, depths and
# blocks in no earlier document, all non-square; half, float and double; stencil windows 3-11.
# Sourced by fix_run.sh (GROUPS_FILE=h200_l_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "L1|matmul|1600x832|-|640|half|128"
  "L2|matmul|960x1408|-|960|float|384"
  "L3|matmul|1664x1024|-|448|double|224"
  "L4|matmul|2304x768|-|576|half|320"
  "L5|matmul|1152x1472|-|1216|float|160"
  "L6|stencil|3584x2816|5x5|0|float|352"
  "L7|stencil|4608x1920|7x7|0|half|416"
  "L8|stencil|2816x3968|11x11|0|float|192"
  "L9|stencil|3968x2432|3x3|0|half|96"
  "L10|stencil|5120x2176|9x9|0|double|480"
  "L11|stencil|2432x4352|7x7|0|double|128"
)
