# The DRAM-bound naive stencils of 2026-11-29 (docs/results/tight/dram-pages.md): fresh sizes and
# blocks in no earlier document, measured on the H200 before the DRAM page model and chose nothing
# in it (the probe kernels/probes/dram_pages did). D6 is a 1x1 window: a copy.
# Sourced by fix_run.sh (GROUPS_FILE=h200_d_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "D1|stencil|4800x3600|3x3|0|double|256"
  "D2|stencil|6656x2304|3x3|0|float|384"
  "D3|stencil|3968x5120|3x3|0|half|128"
  "D4|stencil|5376x2816|5x5|0|float|224"
  "D5|stencil|2944x6400|3x3|0|double|704"
  "D6|stencil|8000x2000|1x1|0|float|256"
)
