# Two fresh naive groups for issue 20's L2 partition change (docs/results/tight/l2-partitions.md),
# measured on the H200 after the change was chosen: a size, depth and block in no earlier document.
# Sourced by fix_run.sh (GROUPS_FILE=l2part_groups.sh). One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "P1|matmul|1152x1536|-|544|float|384"
  "P2|stencil|4608x2304|5x5|0|float|192"
)
