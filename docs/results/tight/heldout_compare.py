#!/usr/bin/env python3
"""The GPU model on the held-out set (issue 20 §2): joins measured rows (cbi sweep --backend gpu
--metrics) with predicted rows (cbi sweep --model gpu, the same axes) on kernel, size, stencil,
depth, type, block and order, and prints the targets per group and overall.

usage: heldout_compare.py MEASURED_DIR PREDICTED_DIR [--rows]
  MEASURED_DIR/heldout-G.csv and PREDICTED_DIR/pred-G.csv for each group G.
Statistics: L1 load-sector hit rate MAE, worst error, Pearson r, NRMSE (RMSE over the measured
range); L1 miss sectors and L1->L2 sectors (the sweep's ..._meas columns, read by CUPTI) within
+-20%; Spearman's rho of predicted against measured time; whether the order the model
ranks first is within 3% of the measured best time."""
import csv, glob, math, os, sys

KEYS = ("kernel", "size", "stencil", "depth", "type", "block", "order")
HIT = "l1tex__t_sector_hit_rate.pct"
SECT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
L2R = "lts__t_sectors_srcunit_tex_op_read.sum"
MISS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"

def rank(v):
    """Average ranks, ties sharing the mean of their positions."""
    s = sorted(v)
    return [(s.index(x) + len(s) - 1 - s[::-1].index(x)) / 2 for x in v]

def pearson(a, b):
    n = len(a); ma, mb = sum(a) / n, sum(b) / n
    sa = math.sqrt(sum((x - ma) ** 2 for x in a)); sb = math.sqrt(sum((y - mb) ** 2 for y in b))
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / (sa * sb) if sa and sb else float("nan")

def key(r):
    return tuple((r.get(k) or "-") for k in KEYS)

def stats(rows):
    p = [r["hit_pred"] for r in rows]; m = [r["hit_meas"] for r in rows]
    err = [a - b for a, b in zip(p, m)]
    rmse = math.sqrt(sum(e * e for e in err) / len(err))
    rng = max(m) - min(m)
    worst = max(err, key=abs)
    within = lambda f: sum(1 for r in rows if r[f + "_meas"] and 0.8 <= r[f + "_pred"] / r[f + "_meas"] <= 1.2)
    tp = [r["time_pred"] for r in rows]; tm = [r["time_meas"] for r in rows]
    rho = pearson(rank(tp), rank(tm)) if len(rows) > 2 else float("nan")
    best_meas = min(tm); pick = min(rows, key=lambda r: r["time_pred"])
    return dict(n=len(rows), mae=sum(abs(e) for e in err) / len(err), worst=worst,
                r=pearson(p, m), nrmse=rmse / rng if rng else float("nan"),
                miss20=within("miss"), l2_20=within("l2"), rho=rho,
                pick=pick["order"], pick_off=100 * (pick["time_meas"] - best_meas) / best_meas)

def main():
    mdir, pdir = sys.argv[1], sys.argv[2]
    groups = {}
    for mpath in sorted(glob.glob(os.path.join(mdir, "heldout-*.csv"))):
        g = os.path.basename(mpath)[len("heldout-"):-4]
        ppath = os.path.join(pdir, "pred-" + g + ".csv")
        if not os.path.exists(ppath):
            continue
        pred = {key(r): r for r in csv.DictReader(open(ppath))}
        rows = []
        for r in csv.DictReader(open(mpath)):
            q = pred.get(key(r))
            if not q or not r.get("gpu_l1_hit_pct"):
                continue
            sect = float(q[SECT + "_pred"]); hm = float(r["gpu_l1_hit_pct"])
            miss_meas = r.get(MISS + "_meas") or sect * (1 - hm / 100)
            l2_meas = r.get(L2R + "_meas") or float(r["gpu_l2_to_l1_bytes"]) / 32
            rows.append(dict(order=r["order"], hit_pred=float(q[HIT + "_pred"]), hit_meas=hm,
                             miss_pred=float(q[MISS + "_pred"]), miss_meas=float(miss_meas),
                             l2_pred=float(q[L2R + "_pred"]), l2_meas=float(l2_meas),
                             time_pred=float(q["predicted_ms"]), time_meas=float(r["gpu_time_ms"])))
        if rows:
            groups[g] = (key(next(iter(csv.DictReader(open(mpath))))), rows)
    print("| group | configuration | n | L1 hit MAE | worst | Pearson r | NRMSE | L1 miss ±20% | "
          "L1→L2 ±20% | Spearman ρ (time) | model's pick | its measured time over the best |")
    print("|" + " --- |" * 12)
    allrows = []
    for g, (k, rows) in groups.items():
        s = stats(rows); allrows += rows
        conf = f"{k[0]} {k[1]}" + (f" {k[2]}" if k[2] != "-" else "") + (f" D={k[3]}" if k[3] != "-" else "") + f" {k[4]} b{k[5]}"
        print(f"| {g} | {conf} | {s['n']} | {s['mae']:.2f} | {s['worst']:+.1f} | {s['r']:.3f} | "
              f"{s['nrmse']:.3f} | {s['miss20']}/{s['n']} | {s['l2_20']}/{s['n']} | {s['rho']:.2f} | "
              f"{s['pick']} | {s['pick_off']:+.1f}% |")
    if allrows:
        s = stats(allrows)
        print(f"| all | | {s['n']} | {s['mae']:.2f} | {s['worst']:+.1f} | {s['r']:.3f} | {s['nrmse']:.3f} | "
              f"{s['miss20']}/{s['n']} | {s['l2_20']}/{s['n']} | – | – | – |")
    if "--rows" in sys.argv:
        for g, (k, rows) in groups.items():
            for r in rows:
                print(g, r["order"], f"{r['hit_pred']:.1f} {r['hit_meas']:.1f}", f"{r['time_pred']:.4f} {r['time_meas']:.4f}")

if __name__ == "__main__":
    main()
