#!/bin/bash
# jsons.sh BIN OUTDIR: the 17 configurations of timing-2026-11-28.sh, JSON each
B=$1; D=$2; mkdir -p $D
while IFS='|' read -r name args; do
  j=--jobs\ 1; [[ $args == *--jobs* ]] && j=
  $B simulate --model gpu $args $j --format json > $D/$name.json 2> $D/$name.err || echo "FAIL $name"
done < <(sed -n 's/^#   //p' /work/wt-tail/docs/results/gpu-model-speed/timing-2026-11-28.sh | grep '|')
echo done $D
