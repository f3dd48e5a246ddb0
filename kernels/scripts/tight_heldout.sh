#!/usr/bin/env bash
# Issue 20 §2 / issue 18 §4: a fresh, held-out set of naive-kernel configurations (sizes, blocks,
# types, windows and depths not in docs/results/ before 2026-11-25), measured with hardware
# counters. It is test data only: no model change may be chosen on it.
#
# usage: bash tight_heldout.sh DIR [GROUPS]   (DIR holds bin/cbi; GROUPS: a regex over the group
# names, default all; results in $OUT as heldout-<tag>.csv files packed into heldout.tar.gz)
set -uo pipefail
dir=${1:?DIR}
only=${2:-.}
bin=$dir/bin
out=${OUT:?}
w=/tmp/heldout; mkdir -p $w
# The tune candidates (cbi tune's default list) with column widths below I_w.
orders() { # WIDTH
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
. "$(dirname "$0")/tight_groups.sh" # groups=(name|kernel|WxH|stencil|depth|type|block ...)
for g in "${groups[@]}"; do
  IFS='|' read -r name kernel size stencil depth type block <<<"$g"
  [[ $name =~ $only ]] || continue
  width=${size%%x*}
  args="--kernel $kernel --size $size --type $type --block $block --order $(orders $width)"
  [ "$stencil" != "-" ] && args="$args --stencil $stencil"
  [ "$depth" != "0" ] && args="$args --depth $depth"
  echo "=== $name: $args ($(date -u +%H:%M:%S))"
  # shellcheck disable=SC2086
  timeout 120 $bin/cbi sweep --backend gpu --metrics --no-check --max-seconds 0.2 $args \
    --output $w/heldout-$name.csv 2> $w/heldout-$name.log
  echo "exit $? rows $(($(wc -l < $w/heldout-$name.csv) - 1))"
done
tar -C $w -czf $out/heldout.tar.gz .
