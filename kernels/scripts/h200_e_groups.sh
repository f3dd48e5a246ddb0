# The fresh DRAM-bound naive stencils of 2026-11-29, second call set (docs/results/tight/dram-pages.md
# §4): sizes and blocks in no earlier document, measured on the H200 after the DRAM stream and
# issue term (stream_issue_norm) and chose nothing; predicted with it, and `cbi tune` on each.
# Sourced by fix_run.sh and l_run.sh (GROUPS_FILE=h200_e_groups.sh).
# One entry a group: name | kernel | WxH | stencil | depth | type | block
groups=(
  "E1|stencil|6400x2200|3x3|0|double|320"
  "E2|stencil|3328x4608|3x3|0|double|160"
  "E3|stencil|5000x2800|5x5|0|double|512"
  "E4|stencil|7680x2048|3x3|0|float|256"
  "E5|stencil|6144x3000|1x1|0|double|128"
  "E6|stencil|4352x3840|3x3|0|half|384"
)
