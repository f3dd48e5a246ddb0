#!/usr/bin/env bash
# Issue 20, the model fix (docs/results/tight/model-fix.md): the one device call that measures the
# fresh validation set (fix_groups.sh) on the H200 after the last change to the GPU model, then
# predicts it on the machine's CPU cores with the model before the fix and after it.
#
# usage: bash fix_run.sh DIR   (DIR holds cbi (built from the branch with the fix: measures, and
# predicts "after") and cbi-before (main before the fix, CPU only: predicts "before"), beside
# fix_groups.sh; results in $OUT/fix.tar.gz and $OUT/log.txt)
set -uo pipefail
dir=${1:?DIR}
out=${OUT:?}
w=/tmp/fix; rm -rf $w; mkdir -p $w
exec > >(tee $out/log.txt) 2>&1
jobs=$(nproc)
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
# The tune candidates (cbi tune's default list) with column widths below I_w, as tight_heldout.sh.
orders() { # WIDTH
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
. "$dir/fix_groups.sh"
args_of() { # group entry -> cbi sweep axes
  IFS='|' read -r name kernel size stencil depth type block <<<"$1"
  local a="--kernel $kernel --size $size --type $type --block $block --order $(orders ${size%%x*})"
  [ "$stencil" != "-" ] && a="$a --stencil $stencil"
  [ "$depth" != "0" ] && a="$a --depth $depth"
  echo "$a"
}
step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
$dir/cbi --version | head -1; $dir/cbi-before --version | head -1
step "measure: cbi sweep --backend gpu --metrics (CUPTI after an L2 flush, median of >= 10 launches)"
for g in "${groups[@]}"; do
  name=${g%%|*}; a=$(args_of "$g")
  echo "--- $name: $a ($(date -u +%H:%M:%S))"
  # shellcheck disable=SC2086
  timeout 100 $dir/cbi sweep --backend gpu --metrics --no-check --max-seconds 0.2 $a \
    --output $w/meas-$name.csv 2> $w/meas-$name.log
  echo "exit $? rows $(($(wc -l < $w/meas-$name.csv) - 1))"
done
tar -C $w -czf $out/fix.tar.gz .
step "predict on $jobs CPU cores: cbi sweep --model gpu --device h200, after the fix and before it"
for g in "${groups[@]}"; do
  name=${g%%|*}; a=$(args_of "$g")
  for m in after before; do
    bin=$dir/cbi; [ $m = before ] && bin=$dir/cbi-before
    s=$(date +%s)
    # shellcheck disable=SC2086
    timeout 120 $bin sweep --model gpu --device h200 --jobs $jobs $a \
      --output $w/pred-$m-$name.csv 2> $w/pred-$m-$name.log
    echo "$name $m: exit $? $(($(date +%s) - s)) s"
  done
  tar -C $w -czf $out/fix.tar.gz .
done
step "done"
