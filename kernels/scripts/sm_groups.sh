# The fresh validation groups of issue 20's SM-side change (docs/results/tight/sm.md), measured on
# the H200 after the last change to the GPU model: sizes, depths, windows and blocks that are in no
# earlier document (non-square sizes; matmul depths 288-736, none equal to the width; blocks 96,
# 224, 288, 352, 480, 576, 704, 832 and 960, none used before; half, float and double; stencil
# windows 3x3, 5x5 and 9x9). Sourced by fix_run.sh (GROUPS_FILE=sm_groups.sh). One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "X1|matmul|1536x832|-|544|float|224"
  "X2|matmul|704x1920|-|736|half|576"
  "X3|matmul|1792x960|-|416|double|352"
  "X4|matmul|1152x1408|-|608|float|832"
  "X5|matmul|2432x576|-|288|half|96"
  "X6|matmul|960x1664|-|672|double|704"
  "X7|stencil|4352x2176|9x9|0|float|288"
  "X8|stencil|2688x3456|5x5|0|half|480"
  "X9|stencil|7424x1024|3x3|0|double|960"
)
