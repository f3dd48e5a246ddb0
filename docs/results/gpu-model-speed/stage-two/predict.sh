#!/usr/bin/env bash
# 2026-11-28 (docs/results/gpu-model-speed.md, "tune's stage two on a sample"): predicts each
# measured H100 group's orders (Q1-Q11 h100_q_groups.sh, R1-R11 h100_r_groups.sh, N1-N4
# h100_groups.sh; the orders of fix_run.sh) on SAMPLE sampled SMs, one cbi tune --search full a
# group, one thread; run two at once on two cores. agree.py compares them with the full device's.
# usage: CBI=path/to/cbi OUT=dir predict.sh SAMPLE GROUP...
set -uo pipefail
cbi=${CBI:-build/bin/cbi}
out=${OUT:-/tmp/stage-two}
scripts=$(cd "$(dirname "$0")/../../../../kernels/scripts" && pwd)
mkdir -p "$out"
S=$1; shift
. "$scripts/h100_q_groups.sh"; q=("${groups[@]}")
. "$scripts/h100_r_groups.sh"; r=("${groups[@]}")
. "$scripts/h100_groups.sh"; n=("${groups[@]}")
all=("${q[@]}" "${r[@]}" "${n[@]}")
orders() { # WIDTH: fix_run.sh's candidates
  local o=linear c
  for c in 4 8 16 32 64 128 256 512 1024; do [ "$c" -lt "$1" ] && o="$o,column:$c"; done
  echo "$o,tile:16,tile:32x8,zigzag:32,zigzag:64"
}
for want in "$@"; do
  for g in "${all[@]}"; do
    IFS='|' read -r name kernel size stencil depth type block <<<"$g"
    [ "$name" = "$want" ] || continue
    a="--kernel $kernel --size $size --type $type --block $block --orders $(orders ${size%%x*})"
    [ "$stencil" != "-" ] && a="$a --stencil $stencil"
    [ "$depth" != "0" ] && a="$a --depth $depth"
    f=$out/s$S-$name.json
    [ -s "$f" ] && continue
    t=$(date +%s)
    # shellcheck disable=SC2086
    nice "$cbi" tune --device h100 --search full --sample-sms "$S" --jobs 1 $a --format json \
      -o "$f.tmp" 2> "$out/s$S-$name.err" && mv "$f.tmp" "$f"
    echo "$(date -u +%T) s$S $name exit $? $(($(date +%s) - t)) s ($a)" >> "$out/log.txt"
  done
done
