# The fresh naive groups of 2026-11-28, fourth stop (docs/results/tight/slide.md): measured on the
# H200 after the float matmul's sliding window of loads (MatmulWorkload::sliding_loads_in_flight),
# predicted with the h200 row before and after it. Sizes, depths and blocks in no earlier document,
# all non-square; half, float and double; stencil windows 3-11. Sourced by fix_run.sh
# (GROUPS_FILE=h200_u_groups.sh). One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "U1|matmul|1408x1152|-|704|float|128"
  "U2|matmul|1984x896|-|384|float|512"
  "U3|matmul|1088x1600|-|896|float|1024"
  "U4|matmul|1280x1024|-|544|half|256"
  "U5|matmul|1728x1216|-|352|double|64"
  "U6|matmul|960x1472|-|768|double|384"
  "U7|stencil|4352x2560|3x3|0|half|160"
  "U8|stencil|3520x3200|5x5|0|float|96"
  "U9|stencil|2944x4096|7x7|0|double|448"
  "U10|stencil|5120x2304|9x9|0|float|1024"
  "U11|stencil|3968x2688|11x11|0|half|352"
)
