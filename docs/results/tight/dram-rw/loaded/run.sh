#!/usr/bin/env bash
set -uo pipefail
B=/work/main/build-q/cbi; A=/work/wt-coord/build/bin/cbi
ev() { # groups file, device, prefix
  . $1
  for g in "${groups[@]}"; do
    IFS='|' read -r name kernel size stencil depth type block <<<"$g"
    [[ $name =~ ^($ONLY)$ ]] || continue
    a="--kernel $kernel --size $size --type $type --block $block --order linear,column:32,tile:32x8"
    [ "$stencil" != "-" ] && a="$a --stencil $stencil"
    [ "$depth" != "0" ] && a="$a --depth $depth"
    for v in before after; do
      bin=$B; [ $v = after ] && bin=$A
      nice $bin sweep --model gpu --device $2 --jobs 2 $a --output /tmp/ev/$3/pred-$v-$name.csv 2>/dev/null
      echo "$v $name exit $?"
    done
  done
}
mkdir -p /tmp/ev/t /tmp/ev/q
ONLY="T7|T8|T9|T10|T11" ev /work/wt-coord/kernels/scripts/h200_t_groups.sh h200 t
ONLY="Q7|Q8|Q9|Q10|Q11" ev /work/wt-coord/kernels/scripts/h100_q_groups.sh h100 q
echo done
