#!/usr/bin/env python3
"""Scores the GPU model's predictions for the tiled kernels (issue 20 §3) against the H100's CUPTI
measurements (tiled.md): per prediction set, per kernel and over both, the DRAM bytes read
(dram__bytes_read.sum), the L2 hit rate (lts__t_sector_hit_rate.pct) and the time, each with its
MAE (points for the hit rate, mean |pred/meas - 1| otherwise), worst error, Pearson's r, NRMSE
(RMSE over the measured range) and the count within the issue's targets (DRAM within +-20%, L2 hit
rate within 5 points; time within +-20%, no target). Per kernel and size: Spearman's rho of
predicted against measured DRAM bytes and time over the 8 block orders, and the order of least
predicted time, ties broken by the least predicted DRAM bytes (tune's pick, sim/src/tune.cpp
rank_orders), with its measured time over the measured best.

usage: tiled_score.py MEASURED_DIR LABEL=PRED.csv[,PRED.csv...] ...
  MEASURED_DIR: h100/tiled or h200/l2parts/fresh (cbi bench --metrics JSONs; the rep2 files are
  left out);
  PRED.csv: predict_tiled.sh / predict_tiled_all.sh rows (full device only: sample_sms 0).
"""
import csv, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heldout_score import pearson, avg_rank, metric_stats

DRAM, L2HIT = "dram__bytes_read.sum", "lts__t_sector_hit_rate.pct"
SIZE_ORDER = ["2048", "2304x4608", "2560", "2816", "3584x2560", "4864x3072", "7424x2048", "5120", "5376", "2560x6144", "7168x4096", "10240x3072", "3072", "3584", "4096", "4608x3328", "5120x2560", "6144", "6144x4096", "6656", "7168", "7680", "8192", "8704x5632",
              "8960", "10240", "12000x4000"]
ORDERS = ["linear", "column:4", "column:8", "column:16", "column:64", "tile:8", "tile:1x8", "zigzag:16"]


def measured(mdir):
    meas = {}
    for f in sorted(os.listdir(mdir)):
        if not f.endswith(".json") or "rep2" in f:
            continue
        kernel = "sgemm-tiled" if f.startswith("sgemm") else "stencil-smem"
        for r in json.load(open(os.path.join(mdir, f)))["results"]:
            w, h = r["width"], r["height"]
            size = f"{w}x{h}" if w != h else str(w)
            meas[(kernel, size, r.get("block_order", "linear"))] = r
    return meas


def predicted(paths):
    pred = {}
    for path in paths.split(","):
        for p in csv.DictReader(open(path)):
            if p["sample_sms"] != "0":
                continue
            pred[(p["kernel"], p["size"], p["block_order"].replace("tile:8x8", "tile:8"))] = p
    return pred


def rows_of(meas, pred):
    rows = []
    for k, p in pred.items():
        m = meas.get(k)
        if not m:
            continue
        rows.append(dict(kernel=k[0], size=k[1], order=k[2],
                         dram_pred=float(p[DRAM]), dram_meas=m["metrics"][DRAM],
                         l2_pred=float(p[L2HIT]), l2_meas=m["metrics"][L2HIT],
                         time_pred=float(p["predicted_ms"]), time_meas=m["median_ms"],
                         bound=p["bound"], seconds=float(p["model_seconds"]) if p["model_seconds"].replace(".", "", 1).isdigit() else float("nan")))
    rows.sort(key=lambda r: (r["kernel"], SIZE_ORDER.index(r["size"]), ORDERS.index(r["order"])))
    return rows


def stats(rows, short):
    """heldout_score's metric_stats (points for the hit rate), within the issue's targets here."""
    if short == "l2":
        rows = [dict(hit_pred=r["l2_pred"], hit_meas=r["l2_meas"]) for r in rows]
    s = metric_stats(rows, "hit" if short == "l2" else short)
    err = [(r["hit_pred"] - r["hit_meas"]) if short == "l2" else r[short + "_pred"] / r[short + "_meas"] - 1
           for r in rows]
    s["within"] = sum(1 for e in err if abs(e) <= (5 if short == "l2" else 0.2))
    return s


def fmt(short, v):
    return f"{v:+.1f}" if short == "l2" else f"{100 * v:+.1f}%"


def main():
    meas = measured(sys.argv[1])
    sets = [(a.split("=", 1)[0], rows_of(meas, predicted(a.split("=", 1)[1]))) for a in sys.argv[2:]]
    names = {"dram": "DRAM bytes read", "l2": "L2 hit rate (points)", "time": "time"}
    print("| predictions | kernel | metric | n | MAE | worst | Pearson r | NRMSE | within target |")
    print("|" + " --- |" * 9)
    for label, rows in sets:
        for kernel in ("sgemm-tiled", "stencil-smem", "both"):
            kr = [r for r in rows if kernel in ("both", r["kernel"])]
            if not kr:
                continue
            for short in ("dram", "l2", "time"):
                s = stats(kr, short)
                mae = f"{s['mae']:.2f}" if short == "l2" else f"{100 * s['mae']:.1f}%"
                print(f"| {label} | {kernel} | {names[short]} | {s['n']} | {mae} | "
                      f"{fmt(short, s['worst'])} | {s['r']:.3f} | {s['nrmse']:.3f} | "
                      f"{s['within']}/{s['n']} |")
    print()
    print("| predictions | kernel | size | Spearman rho DRAM | Spearman rho time | least DRAM pred / meas "
          "| pick (least predicted time, then DRAM) | its time over the best |")
    print("|" + " --- |" * 8)
    for label, rows in sets:
        groups = {}
        for r in rows:
            groups.setdefault((r["kernel"], r["size"]), []).append(r)
        for (kernel, size), g in groups.items():
            if len(g) < 2:
                continue
            rho = {s: pearson(avg_rank([r[s + "_pred"] for r in g]),
                              avg_rank([r[s + "_meas"] for r in g])) for s in ("dram", "time")}
            best = min(r["time_meas"] for r in g)
            pick = min(g, key=lambda r: (r["time_pred"], r["dram_pred"]))
            tie = sum(1 for r in g if r["time_pred"] == pick["time_pred"]) > 1
            dp = min(g, key=lambda r: r["dram_pred"])["order"]
            dm = min(g, key=lambda r: r["dram_meas"])["order"]
            print(f"| {label} | {kernel} | {size} | {rho['dram']:.2f} | {rho['time']:.2f} | {dp} / {dm} | "
                  f"{pick['order']}{' (tie)' if tie else ''} | "
                  f"{100 * (pick['time_meas'] - best) / best:+.1f}% |")
    for label, rows in sets:
        print(f"\n### {label}\n")
        print("| kernel | size | block order | DRAM GB pred / meas | error | L2 hit % pred / meas | "
              "time ms pred / meas (bound) | model s |")
        print("|" + " --- |" * 8)
        for r in rows:
            e = 100 * (r["dram_pred"] / r["dram_meas"] - 1)
            print(f"| {r['kernel']} | {r['size']} | {r['order']} | {r['dram_pred'] / 1e9:.3f} / "
                  f"{r['dram_meas'] / 1e9:.3f} | {e:+.0f}% | {r['l2_pred']:.1f} / {r['l2_meas']:.1f} | "
                  f"{r['time_pred']:.3f} / {r['time_meas']:.3f} ({r['bound']}) | {r['seconds']:.0f} |")


if __name__ == "__main__":
    main()
