# The fresh naive groups of 2026-11-28, second stop (docs/results/tight/lrc-cap.md): measured on the
# H100 with main's kernels after the L2 request coalescer's read limit (l2_coalesce_max_reads, the
# last change to the GPU model), and predicted with the h100 row. Sizes, depths and blocks in no
# earlier document; half, float and double; stencil windows 3-11. Sourced by fix_run.sh
# (GROUPS_FILE=h100_q_groups.sh). One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "Q1|matmul|1472x1088|-|608|float|128"
  "Q2|matmul|1856x704|-|960|half|512"
  "Q3|matmul|1152x1344|-|416|double|256"
  "Q4|matmul|2432x768|-|544|float|384"
  "Q5|matmul|960x1600|-|736|half|192"
  "Q6|matmul|1408x1216|-|352|double|768"
  "Q7|stencil|4480x2688|5x5|0|float|448"
  "Q8|stencil|3456x3328|9x9|0|half|160"
  "Q9|stencil|5888x1664|7x7|0|double|288"
  "Q10|stencil|2560x5120|3x3|0|double|896"
  "Q11|stencil|4224x2944|11x11|0|half|576"
)
