#!/usr/bin/env bash
# Issue 20 §2 / issue 18 §4: the GPU model's predictions for the held-out naive-kernel set
# (docs/results/tight/heldout.md), run on the device machine's CPU cores (no GPU is used): per
# group, `cbi sweep --model gpu` over the measured orders, then `cbi tune`'s staged search over the
# same candidates (--orders: the measured list, so that every pick has a measured time).
#
# usage: bash tight_predict.sh DIR [GROUPS] [DEVICES]   (DIR holds bin/cbi; GROUPS: a regex over
# the group names, default all; DEVICES: default "h100 h200"; results in
# $OUT/predict-DEVICE.tar.gz)
set -uo pipefail
dir=${1:?DIR}
only=${2:-.}
devices=${3:-h100 h200}
cbi=$dir/bin/cbi
out=${OUT:?}
w=/tmp/predict; rm -rf $w; mkdir -p $w
jobs=$(nproc)
# The held-out orders: cbi tune's default list with column widths below I_w (tight_heldout.sh).
orders() { # WIDTH
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
. "$(dirname "$0")/tight_groups.sh" # groups=(name|kernel|WxH|stencil|depth|type|block ...)
h200_groups="M2 M3 M5 S1 S3 S5" # the groups the H200 measured
echo "cores $jobs, $(date -u +%FT%TZ), $($cbi --version 2>&1 | head -1)"
for dev in $devices; do
  for g in "${groups[@]}"; do
    IFS='|' read -r name kernel size stencil depth type block <<<"$g"
    [[ $name =~ $only ]] || continue
    [ "$dev" = h200 ] && [[ " $h200_groups " != *" $name "* ]] && continue
    width=${size%%x*}
    extra=""
    [ "$stencil" != "-" ] && extra="$extra --stencil $stencil"
    [ "$depth" != "0" ] && extra="$extra --depth $depth"
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    $cbi sweep --model gpu --device $dev --jobs $jobs --kernel $kernel --size $size --type $type \
      --block $block --order "$(orders $width)" $extra --output $w/pred-$dev-$name.csv \
      2> $w/pred-$dev-$name.log
    rc=$?
    mid=$(date +%s%N)
    # shellcheck disable=SC2086
    $cbi tune --device $dev --workload $kernel --size $size --type $type \
      --block $block --orders "$(orders $width)" $extra --jobs $jobs --format json \
      > $w/tune-$dev-$name.json 2> $w/tune-$dev-$name.log
    rc2=$?
    end=$(date +%s%N)
    echo "$dev $name: sweep exit $rc $(((mid - start) / 1000000)) ms, staged tune exit $rc2" \
      "$(((end - mid) / 1000000)) ms"
    tar -C $w -czf $out/predict-$dev.tar.gz . # after each group: a run cut short keeps its groups
  done
done
