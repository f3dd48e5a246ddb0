# The fresh validation groups of issue 20's tails change (docs/results/tight/tails.md), measured on
# the H200 after the last change to the GPU model: sizes, depths, windows and blocks that are in no
# earlier document (non-square sizes, depths that differ from the width, blocks 160-1024 with 160,
# 320, 448, 640 and 896 new, half, float and double, stencil windows 3-11). Sourced by fix_run.sh
# (GROUPS_FILE=tails_groups.sh). One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "W1|matmul|1280x896|-|448|double|256"
  "W2|matmul|768x1792|-|704|double|640"
  "W3|matmul|1664x1088|-|384|double|896"
  "W4|matmul|1408x1152|-|576|float|320"
  "W5|matmul|896x2304|-|832|half|256"
  "W6|matmul|2304x704|-|320|float|1024"
  "W7|stencil|5120x1536|11x11|0|float|512"
  "W8|stencil|3584x3072|3x3|0|double|448"
  "W9|stencil|6144x1280|7x7|0|half|160"
)
