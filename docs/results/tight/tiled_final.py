#!/usr/bin/env python3
"""The final model's predictions for the tiled kernels (model-vs-tiled.md, 2026-11-26), put together
from the two runs that made them: the device call (predict_tiled_all.sh on the H200's 16 cores; the
final model but with the L2 request coalescer still merging the SGEMM's reads) and the SGEMM rows
predicted again here with the final model (SgemmTiledWorkload::l2_coalescable = false). The
coalescer merges reads after their tag lookup, so it moves no DRAM byte and no cycle; without it
every L1 miss sector is an L2 read, and the hit rate is (R - D + W) / (R + W) exactly (R the L1
miss sectors, D the DRAM sectors read, W the stored sectors). Where the SGEMM was not predicted
again, this writes that rate and R as the L2 reads into the device call's row (model_seconds
"derived"); on the rows predicted both ways the two agree to the printed digits.

usage: tiled_final.py DEVICE.csv LOCAL.csv OUT.csv"""
import csv, sys

HIT, READS = "lts__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum"
MISS, DRAM = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "dram__bytes_read.sum"


def main():
    dev_path, local_path, out_path = sys.argv[1:4]
    dev = list(csv.DictReader(open(dev_path)))
    local = {(p["kernel"], p["size"], p["block_order"]): p for p in csv.DictReader(open(local_path))}
    out, worst = [], 0.0
    for p in dev:
        k = (p["kernel"], p["size"], p["block_order"])
        if p["kernel"] == "sgemm-tiled":
            w, h = int(p["width"]), int(p["height"])
            R, D, W = float(p[MISS]), float(p[DRAM]) / 32, w * h * 4 / 32
            rate = 100 * (R - D + W) / (R + W)
            if k in local:
                q = local[k]
                assert q[DRAM] == p[DRAM] and q["predicted_ms"] == p["predicted_ms"], k
                worst = max(worst, abs(float(q[HIT]) - rate))
                p = q
            else:
                p = dict(p, **{HIT: repr(rate), READS: p[MISS], "model_seconds": "derived"})
        out.append(p)
    with open(out_path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(dev[0].keys()))
        wr.writeheader()
        wr.writerows(out)
    print(f"{len(out)} rows, {sum(1 for p in out if p['model_seconds'] == 'derived')} derived; "
          f"the derived rate against the predicted one on the {len(local)} rows predicted again: "
          f"at most {worst:.2e} points apart")


if __name__ == "__main__":
    main()
