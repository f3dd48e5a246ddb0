#!/usr/bin/env bash
# 2026-11-28, seventh stop (docs/results/tight/l-set.md): the fresh H200 set L (h200_l_groups.sh),
# measured after the last model change, predicted full device on the device's CPU cores (every
# order: fix_run.sh's "after"), and `cbi tune` (its default staged search, as a user runs it) on
# each group, so that the staged pick and its tie group are scored against the measurement.
# usage: OUT=... bash l_run.sh DIR STEPS REGEX DEADLINE (DIR holds cbi.gz, fix_run.sh,
# h200_l_groups.sh; STEPS: any of measure, after, before, tune; before takes DIR/cbi-before.gz).
# GROUPS_FILE (default h200_l_groups.sh): another set, as h200_s_groups.sh.
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd)
steps=${2:?STEPS}
only=${3:-.}
deadline=${4:-540}
out=${OUT:?}
dir=/tmp/ldir; mkdir -p $dir
gf=${GROUPS_FILE:-h200_l_groups.sh}
cp $src/fix_run.sh $src/$gf $dir/
for b in cbi cbi-before; do
  [ -f $src/$b.gz ] && gunzip -c $src/$b.gz > $dir/$b && chmod +x $dir/$b
done
t0=$(date +%s)
fix_steps=$(echo "$steps" | tr ' ' '\n' | grep -v '^tune$' | tr '\n' ' ')
[ -n "${fix_steps// }" ] && GROUPS_FILE=$gf DEADLINE=$deadline \
  bash $dir/fix_run.sh $dir "$fix_steps" "$only"
[[ " $steps " == *" tune "* ]] || exit 0
. $dir/$gf
mkdir -p /tmp/fix
for g in "${groups[@]}"; do
  IFS='|' read -r name kernel size stencil depth type block <<<"$g"
  [[ $name =~ $only ]] || continue
  if [ $(($(date +%s) - t0)) -gt "$deadline" ]; then echo "deadline: tune $name not run"; continue; fi
  a="--kernel $kernel --size $size --type $type --block $block"
  [ "$stencil" != "-" ] && a="$a --stencil $stencil"
  [ "$depth" != "0" ] && a="$a --depth $depth"
  t=$(date +%s)
  # shellcheck disable=SC2086
  timeout 200 /usr/bin/time -f "%e s wall %U s user %M KB" $dir/cbi tune --device h200 \
    --jobs $(nproc) $a --format json --output /tmp/fix/tune-$name.json 2> /tmp/fix/tune-$name.log
  echo "tune $name: exit $? $(($(date +%s) - t)) s ($a)" | tee -a $out/log.txt
  tar -C /tmp/fix -czf $out/fix.tar.gz .
done
