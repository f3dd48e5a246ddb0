#!/usr/bin/env bash
# Cross-checks the in-process CUPTI counters of `cbi bench --metrics` against Nsight Compute (ncu)
# for the same kernel and configuration (issue 4: hit rates must agree within 1 percentage point).
#
# For each configuration: (1) cbi bench --no-time --metrics --format json reads the counters with
# the CUPTI range profiler (after an L2 flush); (2) ncu profiles the single checked launch of
# cbi bench --no-time with the same metrics (--cache-control all flushes caches first,
# --clock-control none as the range profiler leaves clocks alone). Rates are compared in
# percentage points, counts as relative differences, each side the mean of REPS (default 5)
# separate runs: block scheduling differs from run to run, and with it the hit rates of kernels
# whose blocks share data (matmul), so the run-to-run range is printed beside each mean.
#
# usage: kernels/scripts/ncu_crosscheck.sh [CBI_BINARY] [OUT_DIR]
#   CBI_BINARY defaults to build-gpu/bin/cbi; OUT_DIR (default .) receives ncu's raw CSV files.
# ONLY=REGEX restricts the run to configurations whose name matches.
# Exit status: 0 when every rate agrees within 1 pp, 1 otherwise, 2 when ncu is missing.
set -uo pipefail
cbi=${1:-build-gpu/bin/cbi}
out=${2:-.}
ncu=${NCU:-ncu}
command -v "$ncu" >/dev/null || { echo "ncu_crosscheck: ncu not found (set NCU=/path/to/ncu)"; exit 2; }
metrics=l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sector_hit_rate.pct,\
lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum

# name | kernel regex for ncu | cbi bench arguments
configs=(
  "stencil-linear|stencil_remap|--kernel stencil --order linear --size 2048 --stencil 9x9"
  "stencil-column32|stencil_remap|--kernel stencil --order column:32 --size 2048 --stencil 9x9"
  "stencil-zigzag32-half|stencil_remap|--kernel stencil --order zigzag:32 --size 2048 --type half"
  "stencil-2d|stencil_2d|--kernel stencil-2d --size 2048 --stencil 9x9"
  "stencil-smem|stencil_smem|--kernel stencil-smem --size 2048 --stencil 9x9"
  "matmul-linear|matmul_remap|--kernel matmul --order linear --size 2048"
  "matmul-column32|matmul_remap|--kernel matmul --order column:32 --size 2048"
  "sgemm-tiled|sgemm_tiled|--kernel sgemm-tiled --size 2048"
  "stencil-column32-div|stencil_remap|--kernel stencil --order column:32 --size 2048 --remap-math div"
  "stencil-smem-half|stencil_smem|--kernel stencil-smem --size 2048 --type half"
  "sgemm-tiled-column8|sgemm_tiled|--kernel sgemm-tiled --size 2048 --block-order column:8"
)

status=0
reps=${REPS:-5}
printf '%-22s %-58s %21s %21s %10s\n' config metric "cupti mean [min,max]" "ncu mean [min,max]" diff
for entry in "${configs[@]}"; do
  IFS='|' read -r name regex args <<<"$entry"
  [[ $name =~ ${ONLY:-.} ]] || continue
  failed=0
  for rep in $(seq 1 "$reps"); do
    # shellcheck disable=SC2086
    "$cbi" bench $args --no-time --metrics --format json --output "$out/cupti-$name-$rep.json" \
      2>"$out/cupti-$name-$rep.log" || { echo "$name: cbi bench failed: $(tail -1 "$out/cupti-$name-$rep.log")"; failed=1; }
    # shellcheck disable=SC2086
    "$ncu" --metrics "$metrics" -k "regex:^$regex" -c 1 --cache-control all --clock-control none \
      --print-units base --csv --log-file "$out/ncu-$name-$rep.csv" "$cbi" bench $args --no-time \
      >/dev/null 2>"$out/ncu-$name-$rep.log" || { echo "$name: ncu failed: $(tail -2 "$out/ncu-$name-$rep.log")"; failed=1; }
  done
  [ $failed -eq 0 ] || { status=1; continue; }
  python3 - "$name" "$out" "$reps" <<'PY' || status=1
import csv, json, statistics, sys
name, out, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
cupti, ncu = {}, {}
for rep in range(1, reps + 1):
    m = json.load(open(f"{out}/cupti-{name}-{rep}.json"))["results"][0]["metrics"]
    if not m.get("available"):
        print(f"{name}: CUPTI counters unavailable: {m.get('why')}")
        sys.exit(1)
    for k, v in m.items():
        if k not in ("available", "passes", "why"):
            cupti.setdefault(k, []).append(v)
    rows = list(csv.reader(l for l in open(f"{out}/ncu-{name}-{rep}.csv") if l.startswith('"')))
    mi, vi = rows[0].index("Metric Name"), rows[0].index("Metric Value")
    for r in rows[1:]:
        ncu.setdefault(r[mi], []).append(float(r[vi].replace(",", "")))
ok = True
def span(v):
    return f"{statistics.mean(v):.6g} [{min(v):.4g},{max(v):.4g}]"
for metric, values in cupti.items():
    if metric not in ncu:
        print(f"{name:22s} {metric:58s} {span(values):>21s} {'missing':>21s}")
        ok = False
        continue
    a, b = statistics.mean(values), statistics.mean(ncu[metric])
    if metric.endswith(".pct"):
        good = abs(a - b) <= 1.0  # the issue's requirement: rates within 1 percentage point
        text = f"{a - b:+.2f} pp"
    else:
        good = True  # counts are reported as relative differences; the requirement is on rates
        text = f"{100 * (a - b) / b:+.2f} %" if b else "n/a"
    ok &= good
    print(f"{name:22s} {metric:58s} {span(values):>21s} {span(ncu[metric]):>21s} {text:>10s}"
          f"{'' if good else '  FAIL'}")
sys.exit(0 if ok else 1)
PY
done
if [ $status -eq 0 ]; then echo "ncu_crosscheck: every hit rate agrees within 1 pp"; else echo "ncu_crosscheck: FAILED"; fi
exit $status
