# The coordinator's fresh validation groups of 2026-11-26/27 (docs/results/tight/final.md): measured
# on the H200 after every model change of the session had landed, predicted with main as landed
# ("after") and with main 9d99a83, the model at the session's start ("before"). Sizes, depths,
# blocks and windows in no earlier document; half, float and double. Sourced by fix_run.sh
# (GROUPS_FILE=final_groups.sh). One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "Z1|matmul|1472x896|-|960|float|192"
  "Z2|matmul|1088x1344|-|544|double|768"
  "Z3|matmul|1920x640|-|704|half|512"
  "Z4|matmul|1216x1216|-|480|float|64"
  "Z5|matmul|704x2560|-|896|double|320"
  "Z6|stencil|4352x2048|9x9|0|float|384"
  "Z7|stencil|2560x5632|5x5|0|double|576"
  "Z8|stencil|7680x896|11x11|0|half|128"
  "Z9|stencil|3328x3328|3x3|0|float|960"
)
