# The fresh naive set F of 2026-11-29, third stop (docs/results/tight/l1-issue.md): matmuls in half,
# float and double whose A row pitch puts a narrow column's rows on one L1 bank (a multiple of 128
# bytes: F1, F2, F4, F6) or not (F3, F5, F7), and three L1-bound stencils; sizes, depths and blocks
# in no earlier document. Measured on the H200 in the same call as the l1_issue probe, before the
# model change it led to, and kept unread until that change was fixed (so it chose nothing).
# Sourced by fix_run.sh and l_run.sh (GROUPS_FILE=h200_f_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "F1|matmul|1280x1088|-|1024|half|256"
  "F2|matmul|1728x960|-|704|half|640"
  "F3|matmul|1152x1536|-|600|half|192"
  "F4|matmul|1600x1024|-|896|float|384"
  "F5|matmul|2048x640|-|520|float|1024"
  "F6|matmul|1408x1152|-|384|double|128"
  "F7|matmul|960x1856|-|1056|half|64"
  "F8|stencil|3000x2600|9x9|0|float|448"
  "F9|stencil|2816x2304|11x11|0|half|320"
  "F10|stencil|2304x2944|7x7|0|double|896"
)
