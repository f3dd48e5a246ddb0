# The fresh naive groups of 2026-11-28, fifth stop (docs/results/tight/l1-rate.md): measured on the
# H200 before the L1 request-rate change was chosen (by the l1_rate probe, not by these), kept
# unseen until the change was final, then predicted with the h200 row before and after it. Sizes,
# depths and blocks in no earlier document, all non-square; half, float and double; stencil
# windows 3-11. Sourced by fix_run.sh (GROUPS_FILE=h200_p_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "P1|matmul|1536x896|-|640|float|256"
  "P2|matmul|1152x1344|-|448|float|64"
  "P3|matmul|896x1920|-|960|float|768"
  "P4|matmul|1664x1088|-|320|half|512"
  "P5|matmul|1216x1408|-|576|double|128"
  "P6|matmul|1792x768|-|832|half|96"
  "P7|stencil|4608x2176|3x3|0|float|320"
  "P8|stencil|3200x3712|5x5|0|double|192"
  "P9|stencil|2816x4480|7x7|0|half|640"
  "P10|stencil|4864x2048|9x9|0|double|288"
  "P11|stencil|3456x3072|11x11|0|float|224"
)
