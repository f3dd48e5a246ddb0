# The fresh naive set G of 2026-11-29, fourth stop (docs/results/tight/miss-lines.md): matmuls in
# half, float and double with depths unlike their widths, blocks 96-768, row pitches on one bank
# and not; 3x3, 5x5 and 9x9 stencils; sizes in no earlier document. Measured on the H200 in one
# call with the model's predictions before and after the rule it tests (l1_miss_lines_per_cycle),
# which was fixed from the l1_miss_lines probe before G was measured (so G chose nothing).
# Sourced by g_run.sh. One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "G1|matmul|1344x1216|-|800|half|128"
  "G2|matmul|1792x896|-|448|float|512"
  "G3|matmul|1088x1664|-|672|double|256"
  "G4|matmul|2240x704|-|1200|half|768"
  "G5|matmul|1216x1472|-|544|float|96"
  "G6|stencil|3200x2400|5x5|0|float|384"
  "G7|stencil|2688x3072|9x9|0|half|192"
  "G8|stencil|3584x2048|3x3|0|double|640"
)
