# Short-CTA naive groups of 2026-11-28, seventh stop (docs/results/tight/l-set.md §3): kernels of
# many short CTAs (small blocks, 3x3-7x7 stencils, shallow matmuls), where the device's CTA
# launcher can bound the time. Measured on the H200 after the launcher limit
# (launcher_ctas_per_us, whose value is kernels/probes/cta_launch's) was written and before it
# was scored; predicted before and after it. Sourced by fix_run.sh (GROUPS_FILE=h200_s_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "S1|stencil|4096x2048|3x3|0|float|64"
  "S2|stencil|3200x2880|3x3|0|double|128"
  "S3|stencil|2944x3328|5x5|0|half|64"
  "S4|stencil|2560x1536|3x3|0|half|32"
  "S5|matmul|2048x1536|-|32|float|128"
  "S6|matmul|1792x2304|-|16|half|64"
  "S7|stencil|2176x3456|7x7|0|float|96"
)
