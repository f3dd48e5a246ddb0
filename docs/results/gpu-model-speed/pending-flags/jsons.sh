#!/bin/bash
# jsons.sh BIN OUTDIR
B=$1; D=$2; mkdir -p $D
while IFS='|' read -r name args; do
  j=--jobs\ 1; [[ $args == *--jobs* ]] && j=
  $B simulate --model gpu $args $j --format json > $D/$name.json 2> $D/$name.err || echo "FAIL $name"
done < /tmp/sp/configs.txt
echo done $D
