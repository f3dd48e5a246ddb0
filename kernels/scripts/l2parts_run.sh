#!/usr/bin/env bash
# Issue 20 §1, the L2's two partitions and its request coalescer (docs/results/tight/l2-partitions.md),
# on the H200: the l2_parts probe (kernels/probes/l2_parts.cu) in its three modes, ncu's partition
# and fabric counts of two tiled launches, then the fresh tiled set (sizes in no earlier document)
# measured with cbi bench --metrics, and two fresh naive groups (fix_run.sh's measure step).
#
# usage: bash l2parts_run.sh DIR   (DIR holds l2_parts, cbi, fix_run.sh, l2part_groups.sh)
#   TILED, NAIVE_GROUPS (a groups file in DIR) override the fresh sets: h100_fresh_run.sh.
# Results: $OUT/l2parts.tar.gz (re-packed after each step), $OUT/log.txt, and fix_run.sh's
# $OUT/fix.tar.gz. No step starts after $DEADLINE seconds (default 480).
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
deadline=${DEADLINE:-480}
w=/tmp/l2parts; rm -rf $w; mkdir -p $w
exec > >(tee -a $out/log.txt) 2>&1
t0=$(date +%s)
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S), $(($(date +%s) - t0)) s)"; }
late() { [ $(($(date +%s) - t0)) -gt "$deadline" ] && echo "deadline: $1 not run" && return 0; return 1; }
pack() { tar -C $w -czf $out/l2parts.tar.gz .; }
step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
$dir/cbi --version | head -1

step "map"
timeout 60 $dir/l2_parts map $w; echo "exit $?"
# Sides: per SM the mean first-pass latency over its 64 lines; two clusters (the reference's side,
# 0, is the faster one). Written as "smid side" lines for foot and lrc.
python3 - $w <<'EOF'
import csv, sys, statistics as st
w = sys.argv[1]
rows = list(csv.DictReader(open(f"{w}/map-ref0.csv")))
by = {}
for r in rows:
    by.setdefault(int(r["smid"]), []).append((int(r["lat1"]), int(r["lat2"])))
mean = {s: st.mean(a for a, _ in v) for s, v in by.items()}
lo, hi = min(mean.values()), max(mean.values())
for _ in range(20):  # 2-means
    cut = (lo + hi) / 2
    a = [m for m in mean.values() if m <= cut]; b = [m for m in mean.values() if m > cut]
    lo, hi = st.mean(a), st.mean(b) if b else lo
side = {s: int(m > (lo + hi) / 2) for s, m in mean.items()}
side[0] = 0
with open(f"{w}/sides", "w") as f:
    for s in sorted(side):
        f.write(f"{s} {side[s]}\n")
print("side 0 SMs:", sorted(s for s in side if side[s] == 0))
print("side 1 SMs:", sorted(s for s in side if side[s] == 1))
print(f"cluster means: {lo:.0f} / {hi:.0f} cycles")
for s in sorted(by)[:6] + sorted(by)[-3:]:
    v = by[s]
    print(s, "lat1", sorted(a for a, _ in v)[::8], "lat2", sorted(b for _, b in v)[::8])
EOF
pack

M0="dram__bytes_read.sum lts__t_sectors.sum lts__t_sectors_lookup_hit.sum lts__t_sector_hit_rate.pct
lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum lts__t_sectors_srcunit_tex_op_write.sum
lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum lts__t_sectors_srcunit_ltcfabric.sum
lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum
lts__t_sectors_srcunit_ltcfabric_op_read.sum lts__t_sectors_srcunit_ltcfabric_op_write.sum
lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum lts__t_sectors_srcunit_ltcfabric_op_write_lookup_hit.sum
lrc__request_sectors_op_read_coalescable.sum lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
dram__bytes_write.sum gpu__time_duration.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"
ncu --query-metrics --chip gh100 > $w/query.txt 2>&1
M=""
for m in $M0; do
  if grep -qw -- "${m%.*}" $w/query.txt; then M="$M,$m"; else echo "not on this ncu: $m"; fi
done
M=${M#,}
NCU="ncu --clock-control none --cache-control all --csv --print-units base --metrics $M"

step "foot (ncu)"
for f in 8 16 24 32 40 48 56 64 80 96; do
  late "foot $f" && break
  pats="one0 one1 both swap"; [ $f -le 64 ] && pats="$pats single"
  # shellcheck disable=SC2086
  timeout 60 $NCU -k regex:foot --log-file $w/foot-$f.csv $dir/l2_parts foot $w/sides $f $pats \
    > $w/foot-$f.log 2>&1; echo "foot $f: exit $?"
done
pack

step "lrc (ncu)"
# The SMs: the first of side 0 (a), its TPC partner (a^1), others of side 0, some of side 1.
read -r a tpc same1 same2 other1 other2 <<<"$(python3 - $w/sides <<'EOF'
import sys
side = dict(map(int, l.split()) for l in open(sys.argv[1]))
s0 = [s for s in sorted(side) if side[s] == 0]; s1 = [s for s in sorted(side) if side[s] == 1]
a = s0[0]; t = a ^ 1
print(a, t, s0[len(s0) // 3], s0[-1], s1[0], s1[len(s1) // 2])
EOF
)"
all0=$(awk '$2 == 0 {print $1}' $w/sides | tr '\n' ' ')
all=$(awk '{print $1}' $w/sides | tr '\n' ' ')
echo "a=$a tpc=$tpc same=$same1,$same2 other=$other1,$other2"
i=0
runs=("0 $a" "0 $a $tpc" "0 $a $same1" "0 $a $same2" "0 $a $other1" "0 $a $other2"
  "100 $a $tpc" "400 $a $tpc" "1600 $a $tpc" "100 $a $other1" "400 $a $other1" "1600 $a $other1"
  "0 $a $tpc $same1 $same2" "0 $all0" "0 $all" "400 $all")
for r in "${runs[@]}"; do
  late "lrc $r" && break
  i=$((i + 1))
  # shellcheck disable=SC2086
  timeout 30 $NCU -k regex:lrc --log-file $w/lrc-$i.csv $dir/l2_parts lrc $w/sides 8192 $r \
    > $w/lrc-$i.log 2>&1; echo "lrc $i ($r): exit $?"
done
pack

step "tiled launches' partition counts (ncu)"
for k in "sgemm_tiled|--kernel sgemm-tiled --size 2048 --block-order linear|sgemm-2048" \
  "sgemm_tiled|--kernel sgemm-tiled --size 6144x4096 --depth 3072 --block-order column:64|sgemm-6144x4096" \
  "stencil_smem|--kernel stencil-smem --size 2048 --stencil 9x9 --block-order linear|smem-2048"; do
  late "ncu $k" && break
  IFS='|' read -r kernel args name <<<"$k"
  # shellcheck disable=SC2086
  timeout 60 $NCU -k regex:^$kernel --log-file $w/ncu-$name.csv $dir/cbi bench $args --no-time \
    --format csv > /dev/null 2>&1; echo "ncu $name: exit $?"
done
pack

step "fresh tiled set (cbi bench --metrics)"
orders=linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16
# TILED (optional): the set as "ARGS|NAME;ARGS|NAME;..." (default: the H200 set of 2026-11-26).
tiled=${TILED:-"sgemm-tiled --size 3072|sgemm-3072;sgemm-tiled --size 5120x2560 --depth 2048|sgemm-5120x2560d2048;sgemm-tiled --size 7168|sgemm-7168;stencil-smem --size 3072 --stencil 9x9|smem-3072;stencil-smem --size 5120x2560 --stencil 9x9|smem-5120x2560;stencil-smem --size 10240 --stencil 9x9|smem-10240"}
IFS=';' read -ra tiled_set <<<"$tiled"
for k in "${tiled_set[@]}"; do
  late "bench $k" && break
  IFS='|' read -r args name <<<"$k"
  # shellcheck disable=SC2086
  timeout 120 $dir/cbi bench --kernel $args --block-order $orders --metrics --max-seconds 0.3 \
    --format json > $w/$name.json 2> $w/$name.log; echo "bench $name: exit $?"
  pack
done

step "fresh naive groups"
rest=$((deadline + 60 - ($(date +%s) - t0)))
[ $rest -gt 60 ] && DEADLINE=$((rest - 60)) GROUPS_FILE=${NAIVE_GROUPS:-l2part_groups.sh} bash $dir/fix_run.sh $dir measure
step "done"
pack
