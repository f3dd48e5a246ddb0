#!/usr/bin/env bash
# 2026-11-29, fourth stop (docs/results/tight/miss-lines.md): the fresh set F predicted with an
# experimental rule (CBI_EXP_MISS_LINE=C: a request's lines with sectors missing or on their way
# hold the L1 C cycles each), full device, on the device's CPU cores.
# usage: OUT=... bash exp_run.sh DIR "C..." DEADLINE   (DIR holds cbi-exp.gz, h200_f_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); cs=${2:?C}; deadline=${3:-520}
w=/tmp/exp; mkdir -p $w/out; gunzip -c $src/cbi-exp.gz > $w/cbi && chmod +x $w/cbi
. $src/h200_f_groups.sh
orders() {
  local o="linear"
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
t0=$(date +%s)
for c in $cs; do
  for g in "${groups[@]}"; do
    IFS='|' read -r name kernel size stencil depth type block <<<"$g"
    if [ $(($(date +%s) - t0)) -gt "$deadline" ]; then echo "deadline: e$c $name not run" >> $OUT/log.txt; continue; fi
    a="--kernel $kernel --size $size --type $type --block $block --order $(orders ${size%%x*})"
    [ "$stencil" != "-" ] && a="$a --stencil $stencil"
    [ "$depth" != "0" ] && a="$a --depth $depth"
    t=$(date +%s)
    CBI_EXP_MISS_LINE=$c timeout 200 $w/cbi sweep --model gpu --device h200 --jobs $(nproc) $a \
      --output $w/out/pred-e$c-$name.csv 2> $w/out/pred-e$c-$name.log
    echo "e$c $name exit $? $(($(date +%s) - t)) s" >> $OUT/log.txt
    tar -C $w/out -czf $OUT/exp.tar.gz .
  done
done
