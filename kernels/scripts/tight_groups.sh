# The held-out naive-kernel groups (docs/results/tight/heldout.md), sourced by tight_heldout.sh,
# tight_predict.sh and tight_inst.sh. One entry a group:
# name | kernel | WxH | stencil | depth | type | block
groups=(
  "M1|matmul|1280x1280|-|640|float|64"
  "M2|matmul|1792x1152|-|2048|float|384"
  "M3|matmul|896x1408|-|768|double|512"
  "M4|matmul|1536x768|-|1024|half|1024"
  "M5|matmul|2560x640|-|512|float|768"
  "M6|matmul|1152x1728|-|896|double|256"
  "S1|stencil|5120x2880|3x3|0|float|64"
  "S2|stencil|3584x3584|5x5|0|half|384"
  "S3|stencil|6144x1536|7x7|0|double|512"
  "S4|stencil|2304x4608|11x11|0|float|1024"
  "S5|stencil|3333x2222|9x9|0|double|768"
  "S6|stencil|2500x2500|11x11|0|half|128"
)
