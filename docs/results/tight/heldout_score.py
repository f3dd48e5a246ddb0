#!/usr/bin/env python3
"""Scores the GPU model on the held-out naive-kernel set (issue 20 §2, issue 18 §4).

usage: heldout_score.py MEASURED_ROOT PREDICTED_DIR OUT_CSV
  MEASURED_ROOT/{h100,h200}/heldout/heldout-G.csv: cbi sweep --backend gpu --metrics (heldout.md);
  PREDICTED_DIR/pred-D-G.csv: cbi sweep --model gpu --device D over the same axes;
  PREDICTED_DIR/tune-D-G.json: cbi tune --device D --orders <the measured orders> --format json
  (the staged search, the default). kernels/scripts/tight_predict.sh makes both.
Writes OUT_CSV (one row per configuration: predicted and measured per metric) and prints the
markdown tables of heldout-scores.md.

Metrics (ncu names; measured by CUPTI after an L2 flush): the L1 load-sector hit rate
(..._op_ld_lookup_hit.sum over l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum, points; Nsight's
l1tex__t_sector_hit_rate.pct counts store sectors as well and is kept as hit_all_meas), L1 miss sectors (..._lookup_miss.sum), L1->L2 sectors
(lts__t_sectors_srcunit_tex_op_read.sum), DRAM bytes (dram__bytes_read.sum) and time (ms; the
median of >= 10 launches). Per metric: MAE (points for the hit rate; for the others the mean
|predicted/measured - 1|), the worst error (signed), Pearson's r, NRMSE (RMSE over the measured
range) and the fraction within +-20% (for the hit rate: within 6 points). Per group: Spearman's rho
of predicted against measured time, and the picks: the full search's (the order with the least
predicted time among every candidate on the full device: the sweep's rows) and the staged
search's (tune's winner and its tie group 1), each with its measured time over the measured best.
"""
import csv, glob, json, math, os, sys

SECT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
LDHIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
HIT = "l1tex__t_sector_hit_rate.pct"  # Nsight's: every L1 sector, stores (misses) included
MISS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"
L2R = "lts__t_sectors_srcunit_tex_op_read.sum"
DRAM = "dram__bytes_read.sum"
METRICS = [("hit", "L1 load-sector hit rate (points)", None), ("miss", "L1 miss sectors", MISS),
           ("l2", "L1→L2 sectors", L2R), ("dram", "DRAM bytes read", DRAM),
           ("time", "time (ms)", None)]
KEYS = ("kernel", "size", "stencil", "depth", "type", "block", "order")


def avg_rank(v):
    s = sorted(v)
    return [(s.index(x) + len(s) - 1 - s[::-1].index(x)) / 2 for x in v]


def pearson(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    sa = math.sqrt(sum((x - ma) ** 2 for x in a))
    sb = math.sqrt(sum((y - mb) ** 2 for y in b))
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / (sa * sb) if sa and sb else float("nan")


def key(r):
    return tuple((r.get(k) or "-") for k in KEYS)


def load(mroot, pdir):
    rows, groups = [], {}
    for dev in ("h100", "h200"):
        for mpath in sorted(glob.glob(os.path.join(mroot, dev, "heldout", "heldout-*.csv"))):
            g = os.path.basename(mpath)[len("heldout-"):-4]
            ppath = os.path.join(pdir, f"pred-{dev}-{g}.csv")
            if not os.path.exists(ppath):
                print(f"missing {ppath}", file=sys.stderr)
                continue
            pred = {key(r): r for r in csv.DictReader(open(ppath))}
            grows = []
            for r in csv.DictReader(open(mpath)):
                q = pred.get(key(r))
                if q is None or not r.get("gpu_time_ms"):
                    print(f"{dev} {g} {r['order']}: no prediction or no measurement",
                          file=sys.stderr)
                    continue
                x = dict(device=dev, group=g, kernel=r["kernel"], size=r["size"],
                         stencil=r["stencil"], depth=r["depth"], type=r["type"], block=r["block"],
                         order=r["order"], bound=q["model_bound"])
                for short, _, name in METRICS:
                    if name:
                        x[short + "_pred"] = float(q[name + "_pred"])
                        x[short + "_meas"] = float(r[name + "_meas"])
                # The load-sector hit rate, lookup hits over load sectors, on both sides: Nsight's
                # l1tex__t_sector_hit_rate.pct counts the stores' sectors too (as misses), the
                # model's column of that name counts loads only (heldout-scores.md §1).
                x["hit_pred"] = 100 * float(q[LDHIT + "_pred"]) / float(q[SECT + "_pred"])
                x["hit_meas"] = 100 * float(r[LDHIT + "_meas"]) / float(r[SECT + "_meas"])
                x["hit_all_meas"] = float(r[HIT + "_meas"])
                x["sectors_pred"] = float(q[SECT + "_pred"])
                x["sectors_meas"] = float(r[SECT + "_meas"])
                x["time_pred"] = float(q["predicted_ms"])
                x["time_meas"] = float(r["gpu_time_ms"])
                x["time_noise"] = float(r["gpu_noise"] or 0)
                grows.append(x)
            tpath = os.path.join(pdir, f"tune-{dev}-{g}.json")
            tune = json.load(open(tpath)) if os.path.exists(tpath) and os.path.getsize(tpath) else None
            groups[(dev, g)] = (grows, tune)
            rows += grows
    return rows, groups


def metric_stats(rows, short):
    p = [r[short + "_pred"] for r in rows]
    m = [r[short + "_meas"] for r in rows]
    if short == "hit":
        err = [a - b for a, b in zip(p, m)]
        within = sum(1 for e in err if abs(e) <= 6)
    else:
        err = [a / b - 1 if b else float("nan") for a, b in zip(p, m)]
        within = sum(1 for e in err if abs(e) <= 0.2)
    rmse = math.sqrt(sum((a - b) ** 2 for a, b in zip(p, m)) / len(p))
    rng = max(m) - min(m)
    return dict(n=len(rows), mae=sum(abs(e) for e in err) / len(err), worst=max(err, key=abs),
                r=pearson(p, m), nrmse=rmse / rng if rng else float("nan"), within=within)


def fmt_err(short, v):
    return f"{v:+.2f}" if short == "hit" else f"{100 * v:+.1f}%"


def fmt_mae(short, v):
    return f"{v:.2f}" if short == "hit" else f"{100 * v:.1f}%"


def pick_stats(rows, tune):
    best = min(r["time_meas"] for r in rows)
    by_order = {r["order"]: r for r in rows}
    over = lambda o: 100 * (by_order[o]["time_meas"] - best) / best if o in by_order else float("nan")
    full = min(rows, key=lambda r: r["time_pred"])["order"]
    out = dict(best=min(rows, key=lambda r: r["time_meas"])["order"], full=full, full_over=over(full))
    if tune:
        rk = tune["ranking"]
        out["staged"] = rk[0]["order"]
        out["staged_over"] = over(rk[0]["order"])
        tied = [x["order"] for x in rk if x.get("tie_group") == 1]
        out["tied"] = tied
        out["tied_over"] = [over(o) for o in tied]
        out["staged_full"] = [x["order"] for x in rk if x.get("replay") == "full"]
    return out


def main():
    mroot, pdir, out_csv = sys.argv[1], sys.argv[2], sys.argv[3]
    rows, groups = load(mroot, pdir)
    fields = list(rows[0].keys())
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    for dev in ("h100", "h200"):
        drows = [r for r in rows if r["device"] == dev]
        if not drows:
            continue
        print(f"\n### {dev.upper()}: every metric over {len(drows)} configurations\n")
        print("| metric | n | MAE | worst | Pearson r | NRMSE | within ±20% (hit rate: ±6 points) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for short, label, _ in METRICS:
            for fam, sub in (("all", drows), ("matmul", [r for r in drows if r["kernel"] == "matmul"]),
                             ("stencil", [r for r in drows if r["kernel"] == "stencil"])):
                s = metric_stats(sub, short)
                print(f"| {label}, {fam} | {s['n']} | {fmt_mae(short, s['mae'])} | "
                      f"{fmt_err(short, s['worst'])} | {s['r']:.3f} | {s['nrmse']:.3f} | "
                      f"{s['within']}/{s['n']} ({100 * s['within'] / s['n']:.0f}%) |")
        print(f"\n### {dev.upper()}: per group\n")
        print("| group | n | L1 hit MAE | worst | L1 miss ±20% | L1→L2 ±20% | DRAM ±20% | time MAE "
              "| Spearman ρ | measured best | full search's pick (over best) | staged pick "
              "(over best) | tie group 1 of the staged search (each over best) |")
        print("|" + " --- |" * 13)
        for (d, g), (grows, tune) in groups.items():
            if d != dev or not grows:
                continue
            h = metric_stats(grows, "hit")
            t = metric_stats(grows, "time")
            rho = pearson(avg_rank([r["time_pred"] for r in grows]),
                          avg_rank([r["time_meas"] for r in grows]))
            c = lambda s: f"{metric_stats(grows, s)['within']}/{len(grows)}"
            p = pick_stats(grows, tune)
            staged = (f"{p['staged']} ({p['staged_over']:+.1f}%)" if "staged" in p else "–")
            tied = (", ".join(f"{o} ({v:+.1f}%)" for o, v in zip(p["tied"], p["tied_over"]))
                    if "tied" in p else "–")
            print(f"| {g} | {len(grows)} | {h['mae']:.2f} | {h['worst']:+.1f} | {c('miss')} | "
                  f"{c('l2')} | {c('dram')} | {100 * t['mae']:.1f}% | {rho:.2f} | {p['best']} | "
                  f"{p['full']} ({p['full_over']:+.1f}%) | {staged} | {tied} |")


if __name__ == "__main__":
    main()
