# The fresh naive groups of 2026-11-28, sixth stop (docs/results/tight/miss-cost.md): measured on
# the H200 before the L1 miss-cost change was chosen, kept unseen until it was final, then
# predicted with the h200 row before and after it. Sizes, depths and blocks in no earlier
# document, all non-square; half, float and double; stencil windows 3-11. Sourced by fix_run.sh
# (GROUPS_FILE=h200_k_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "K1|matmul|1280x1664|-|512|float|128"
  "K2|matmul|2048x640|-|1088|half|256"
  "K3|matmul|1216x1280|-|704|double|320"
  "K4|matmul|1856x1152|-|384|half|192"
  "K5|matmul|1408x1088|-|832|float|512"
  "K6|stencil|5376x1792|7x7|0|double|256"
  "K7|stencil|2560x4224|3x3|0|double|448"
  "K8|stencil|4032x2560|9x9|0|float|384"
  "K9|stencil|4480x2304|11x11|0|double|160"
  "K10|stencil|3072x3328|5x5|0|half|224"
  "K11|stencil|2304x5632|9x9|0|half|128"
)
