#!/usr/bin/env python3
"""Scores the GPU model before and after the model fix on the fresh validation set (issue 20;
docs/results/tight/model-fix.md).

usage: fix_score.py DIR [OUT_CSV] [--tags T1,T2,...] [--device NAME]
  DIR/meas-G.csv: cbi sweep --backend gpu --metrics (kernels/scripts/fix_run.sh, on the H200);
  DIR/pred-before-G.csv, DIR/pred-after-G.csv: cbi sweep --model gpu --device h200 over the same
  axes with cbi built before the fix (main cef6081) and after it.
Prints the markdown tables of model-fix.md: per metric (MAE, worst, Pearson r, NRMSE, within
+-20% or +-6 points) and per group (Spearman's rho of predicted against measured time, the full
search's pick: the order of least predicted time, and its measured time over the measured best).
Metrics as heldout_score.py defines them (the L1 load-sector hit rate from the lookup counts on
both sides), plus Nsight's all-sector l1tex__t_sector_hit_rate.pct against the model's column of
that name (after the fix only: before it, the model's column of that name counted loads only).
"""
import csv, glob, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heldout_score import (SECT, LDHIT, HIT, MISS, L2R, DRAM, key, metric_stats, fmt_err, fmt_mae,
                           pearson, avg_rank)

METRICS = [("hit", "L1 load-sector hit rate (points)"), ("hitall", "Nsight's l1tex__t_sector_hit_rate.pct (points)"),
           ("miss", "L1 miss sectors"), ("l2", "L1→L2 sectors"), ("dram", "DRAM bytes read"),
           ("time", "time (ms)")]


def load(d, tag):
    rows, groups = [], {}
    for mpath in sorted(glob.glob(os.path.join(d, "meas-*.csv"))):
        g = os.path.basename(mpath)[len("meas-"):-4]
        ppath = os.path.join(d, f"pred-{tag}-{g}.csv")
        if not os.path.exists(ppath):
            print(f"missing {ppath}", file=sys.stderr)
            continue
        pred = {key(r): r for r in csv.DictReader(open(ppath))}
        grows = []
        for r in csv.DictReader(open(mpath)):
            q = pred.get(key(r))
            if q is None or not r.get("gpu_time_ms") or not r.get(SECT + "_meas"):
                print(f"{tag} {g} {r.get('order')}: no prediction or no measurement", file=sys.stderr)
                continue
            x = dict(model=tag, group=g, kernel=r["kernel"], size=r["size"], stencil=r["stencil"],
                     depth=r["depth"], type=r["type"], block=r["block"], order=r["order"],
                     bound=q["model_bound"])
            for short, name in (("miss", MISS), ("l2", L2R), ("dram", DRAM)):
                x[short + "_pred"] = float(q[name + "_pred"])
                x[short + "_meas"] = float(r[name + "_meas"])
            x["hit_pred"] = 100 * float(q[LDHIT + "_pred"]) / float(q[SECT + "_pred"])
            x["hit_meas"] = 100 * float(r[LDHIT + "_meas"]) / float(r[SECT + "_meas"])
            x["hitall_pred"] = float(q[HIT + "_pred"])
            x["hitall_meas"] = float(r[HIT + "_meas"])
            x["time_pred"] = float(q["predicted_ms"])
            x["time_meas"] = float(r["gpu_time_ms"])
            x["time_noise"] = float(r["gpu_noise"] or 0)
            grows.append(x)
        groups[g] = grows
        rows += grows
    return rows, groups


def stats_hitall(rows):
    # the same statistics as the hit rate (points)
    sub = [dict(hit_pred=r["hitall_pred"], hit_meas=r["hitall_meas"]) for r in rows]
    return metric_stats(sub, "hit")


def main():
    args, tags, device = [], ("before", "after"), "H200"
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a == "--tags":
            tags = tuple(argv.pop(0).split(","))
        elif a == "--device":
            device = argv.pop(0)
        else:
            args.append(a)
    sys.argv = [sys.argv[0]] + args
    d = sys.argv[1]
    out = []
    for tag in tags:
        rows, groups = load(d, tag)
        if not rows:
            continue
        out += rows
        print(f"\n### {tag} the fix ({device}, {len(rows)} configurations)\n")
        print("| metric | n | MAE | worst | Pearson r | NRMSE | within ±20% (hit rates: ±6 points) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for short, label in METRICS:
            if short == "hitall" and tag == "before":
                continue
            for fam, sub in (("all", rows), ("matmul", [r for r in rows if r["kernel"] == "matmul"]),
                             ("stencil", [r for r in rows if r["kernel"] == "stencil"])):
                if not sub:
                    continue
                s = stats_hitall(sub) if short == "hitall" else metric_stats(sub, short)
                k = "hit" if short == "hitall" else short
                print(f"| {label}, {fam} | {s['n']} | {fmt_mae(k, s['mae'])} | {fmt_err(k, s['worst'])} | "
                      f"{s['r']:.3f} | {s['nrmse']:.3f} | {s['within']}/{s['n']} "
                      f"({100 * s['within'] / s['n']:.0f}%) |")
        print(f"\n#### {tag}: per group\n")
        print("| group | n | L1 hit MAE | worst | L1 miss ±20% | L1→L2 ±20% | DRAM ±20% | time MAE | "
              "Spearman ρ | measured best | pick (least predicted time; over best) |")
        print("|" + " --- |" * 11)
        for g, grows in groups.items():
            if not grows:
                continue
            h = metric_stats(grows, "hit")
            t = metric_stats(grows, "time")
            rho = pearson(avg_rank([r["time_pred"] for r in grows]),
                          avg_rank([r["time_meas"] for r in grows]))
            c = lambda s: f"{metric_stats(grows, s)['within']}/{len(grows)}"
            best = min(grows, key=lambda r: r["time_meas"])
            pick = min(grows, key=lambda r: r["time_pred"])
            over = 100 * (pick["time_meas"] - best["time_meas"]) / best["time_meas"]
            print(f"| {g} | {len(grows)} | {h['mae']:.2f} | {h['worst']:+.1f} | {c('miss')} | "
                  f"{c('l2')} | {c('dram')} | {100 * t['mae']:.1f}% | {rho:.2f} | {best['order']} | "
                  f"{pick['order']} ({over:+.1f}%) |")
    if len(sys.argv) > 2 and out:
        with open(sys.argv[2], "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
            w.writeheader()
            w.writerows(out)


if __name__ == "__main__":
    main()
