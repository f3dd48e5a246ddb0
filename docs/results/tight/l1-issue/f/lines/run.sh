cd /work/wt-coord
. kernels/scripts/h200_f_groups.sh
for g in "${groups[@]}"; do
  IFS='|' read -r name kernel size stencil depth type block <<<"$g"
  a="--kernel $kernel --size $size --type $type --block $block --order column:4,column:8"
  [ "$stencil" != "-" ] && a="$a --stencil $stencil"
  [ "$depth" != "0" ] && a="$a --depth $depth"
  timeout 900 /tmp/spr/cbi-spread sweep --model gpu --device h200 --jobs 2 $a --output /tmp/spr/pred-spread-$name.csv 2> /tmp/spr/pred-spread-$name.log
  echo "$name exit $? $(date -u +%T)" >> /tmp/spr/log.txt
done
echo done >> /tmp/spr/log.txt
