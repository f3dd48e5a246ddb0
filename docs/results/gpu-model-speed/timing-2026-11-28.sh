#!/bin/bash
# 2026-11-28 (tail2): the scripts behind gpu-model-speed.md "the stencil's L2 prefetch". Binaries: /tmp/tail/cbi.before (7fa13b7),
# /tmp/tail/cbi.v6 (0599ea4), cbi.v5 (7fa13b7 + summary-ready-words-2026-11-28.patch).

# The 17 configurations whose JSON was compared (name|arguments of cbi simulate --model gpu; --jobs 1 unless given):
#   mm512f|--device h100 --workload matmul --size 512 --block 256 --order linear
#   mm512d|--device h100 --workload matmul --size 512 --block 256 --type double --order column:32
#   mm1024f|--device h100 --workload matmul --size 1024 --block 256 --order linear
#   mm1024d|--device h100 --workload matmul --size 1024 --block 128 --type double --order tile:32x8
#   st2048d|--device h100 --workload stencil --stencil 9x9 --size 2048 --block 256 --type double --order column:256
#   st2048f|--device h100 --workload stencil --stencil 9x9 --size 2048 --block 256 --order linear
#   h200st|--device h200 --workload stencil --stencil 9x9 --size 2048 --block 256 --order column:8
#   h200mm|--device h200 --workload matmul --size 512 --block 256 --type double --order linear
#   rtx|--device rtx2080super --workload matmul --size 512 --block 256 --order column:32
#   rtxst|--device rtx2080super --workload stencil --stencil 5x5 --size 1000 --block 96 --order zigzag:8
#   tiled|--device h100 --kernel sgemm-tiled --size 1024 --block-order tile:4
#   tiledh200|--device h200 --kernel sgemm-tiled --size 512 --block-order column:4
#   smem|--device h100 --kernel stencil-smem --size 2048 --stencil 5x5
#   a100|--device a100 --workload matmul --size 512 --order column:33
#   samp|--device h100 --workload matmul --size 1024 --order tile:32x8 --sample-sms 12
#   j2|--device h100 --workload stencil --stencil 9x9 --size 2048 --order column:32 --jobs 2
#   j16|--device h100 --workload matmul --size 512 --block 128 --order tile:32x8 --jobs 16

# jsons.sh BIN DIR: every configuration's JSON
jsons() {
# usage: jsons.sh BIN OUTDIR
B=$1; D=$2; mkdir -p $D
while IFS='|' read -r name args; do
  j=--jobs\ 1; [[ $args == *--jobs* ]] && j=
  $B simulate --model gpu $args $j --format json > $D/$name.json 2> $D/$name.err || echo "FAIL $name"
done < <(sed -n 's/^#   //p' "$0" | grep '|')
echo done

}

# cmp.sh DIR: the JSON against json.before, less date, command, commit and seconds
cmpjson() {
# usage: cmp.sh DIR: diffs DIR's JSON against json.before, less the fields that vary
for f in /tmp/tail/json.before/*.json; do n=$(basename $f)
  if ! diff <(grep -v -E '(git_commit|"seconds|"date|"command)' $f) <(grep -v -E '(git_commit|"seconds|"date|"command)' $1/$n) > /dev/null; then echo "DIFF $n"; fi
done; echo compared $(ls $1/*.json | wc -l)

}

# cg.sh TAG ARGS: cachegrind
cg() {
# usage: cg.sh TAG ARGS...: cachegrind of cbi.TAG
T=$1; shift
valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 --cachegrind-out-file=/tmp/tail/cg.$T.$(echo "$@" | tr -c 'a-z0-9' _ | cut -c1-60).out /tmp/tail/cbi.$T simulate --model gpu "$@" --jobs 1 > /dev/null 2> /tmp/tail/cg.err.$T
grep -E 'I +refs|D1  misses|LL misses|LLd misses|D +refs' /tmp/tail/cg.err.$T | sed "s/^/$T /"

}

# tv.sh: the two target configurations, before and after, /usr/bin/time -v on core 1
tv() {
for b in before v6; do
for cfg in "matmul1024|--workload matmul --size 1024 --block 256 --order linear" "stencil4096|--workload stencil --stencil 9x9 --size 4096 --block 256 --order column:256"; do
  name=${cfg%%|*}; args=${cfg#*|}
  l=$(cat /proc/loadavg | cut -d' ' -f1-3)
  /usr/bin/time -v taskset -c 1 /tmp/tail/cbi.$b simulate --model gpu --device h100 $args --jobs 1 --format json > /tmp/tail/tv.$b.$name.json 2> /tmp/tail/tv.$b.$name.err
  echo "$b $name $(date -u +%H:%M:%S) load=[$l] $(grep -E 'Elapsed|User time|Maximum resident' /tmp/tail/tv.$b.$name.err | sed 's/^\s*//' | tr '\n' ';') pred=$(grep -o '"predicted_ms": *[0-9.e-]*' /tmp/tail/tv.$b.$name.json)"
done; done
}
