#!/usr/bin/env bash
# Issue 20, the model fix (docs/results/tight/model-fix.md): measures the fresh validation set
# (fix_groups.sh) on the H200 after the last change to the GPU model, and predicts it on the
# machine's CPU cores with the model after the fix and before it.
#
# usage: bash fix_run.sh DIR [STEPS] [GROUPS]
#   DIR holds cbi (built from the branch with the fix: measures, and predicts "after"), cbi-before
#   (main before the fix, CPU only: predicts "before") and fix_groups.sh (or the file that
#   GROUPS_FILE names in DIR, as tails_groups.sh for docs/results/tight/tails.md); STEPS: any of measure,
#   after, before (default all three, in that order) or another name STEP, which predicts with
#   DIR/cbi-STEP (a variant of the model, as sm.md's); GROUPS: a regex over the group names.
#   DEVICE (default h200): the device row the predictions use.
#   Results in $OUT/fix.tar.gz (re-packed after each group) and $OUT/log.txt. No step starts a
#   group after $DEADLINE seconds (default 540), so that the call ends inside its limit.
set -uo pipefail
dir=${1:?DIR}
steps=${2:-measure after before}
only=${3:-.}
out=${OUT:?}
deadline=${DEADLINE:-540}
w=/tmp/fix; mkdir -p $w
exec > >(tee -a $out/log.txt) 2>&1
jobs=$(nproc)
t0=$(date +%s)
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
late() { [ $(($(date +%s) - t0)) -gt "$deadline" ] && echo "deadline: $1 not run" && return 0; return 1; }
# The tune candidates (cbi tune's default list) with column widths below I_w, as tight_heldout.sh.
orders() { # WIDTH
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
. "$dir/${GROUPS_FILE:-fix_groups.sh}"
args_of() { # group entry -> cbi sweep axes
  IFS='|' read -r name kernel size stencil depth type block <<<"$1"
  local a="--kernel $kernel --size $size --type $type --block $block --order $(orders ${size%%x*})"
  [ "$stencil" != "-" ] && a="$a --stencil $stencil"
  [ "$depth" != "0" ] && a="$a --depth $depth"
  echo "$a"
}
step "device, $jobs CPU cores"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
for b in $dir/cbi $dir/cbi-*; do [ -x "$b" ] && echo "$b: $($b --version | head -1)"; done
for s in $steps; do
  step "$s"
  for g in "${groups[@]}"; do
    name=${g%%|*}; [[ $name =~ $only ]] || continue
    late "$s $name" && continue
    a=$(args_of "$g"); t=$(date +%s)
    if [ $s = measure ]; then
      # CUPTI counters after an L2 flush, median of >= 10 launches (tight_heldout.sh's settings)
      # shellcheck disable=SC2086
      timeout 100 $dir/cbi sweep --backend gpu --metrics --no-check --max-seconds 0.2 $a \
        --output $w/meas-$name.csv 2> $w/meas-$name.log
    else
      bin=$dir/cbi; [ $s != after ] && bin=$dir/cbi-$s # before: cbi-before; any other: cbi-STEP
      # shellcheck disable=SC2086
      timeout 150 $bin sweep --model gpu --device "${DEVICE:-h200}" --jobs $jobs $a \
        --output $w/pred-$s-$name.csv 2> $w/pred-$s-$name.log
    fi
    echo "$s $name: exit $? $(($(date +%s) - t)) s ($a)"
    tar -C $w -czf $out/fix.tar.gz .
  done
done
step "done"
