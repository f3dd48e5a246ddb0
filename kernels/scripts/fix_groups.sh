# The fresh validation groups of issue 20's model fix (docs/results/tight/model-fix.md), measured
# on the H200 after the last change to the GPU model: sizes, depths, windows and blocks that are in
# no earlier document (non-square sizes, depths that differ from the width, blocks 128-1024, half,
# float and double). Sourced by fix_run.sh. One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "V1|matmul|1600x960|-|800|double|384"
  "V2|matmul|1024x1536|-|640|double|1024"
  "V3|matmul|960x1920|-|512|double|128"
  "V4|matmul|2048x768|-|640|float|128"
  "V5|matmul|1152x1152|-|768|half|512"
  "V6|stencil|4608x2304|5x5|0|double|256"
  "V7|stencil|3000x4000|7x7|0|float|768"
  "V8|stencil|7168x1024|3x3|0|half|1024"
  "V9|stencil|2816x2816|9x9|0|float|192"
)
