#!/usr/bin/env python3
"""The GPU model's validated time error for cbi tune's tie groups, by workload family: the mean,
over every pair of orders measured in the same group (same kernel, size, window, depth, type,
block), of |ln(pred_a / pred_b) - ln(meas_a / meas_b)|, the error of the predicted ratio of two
orders' times. A ranking compares orders of one configuration, so a bias that every order of a
group shares (the stencils' instruction count) does not count; the spread of the errors does.
Also printed: the mean |ln(pred / meas)| (the absolute error, bias included).

usage: tie_tolerance.py [--naive MEAS_DIR PRED_DIR PREFIX]... [--tiled MEAS_DIR PRED.csv]...
  --naive: fix_run.sh's meas-G.csv in MEAS_DIR beside PREFIX-G.csv in PRED_DIR (cbi sweep CSVs);
  --tiled: tiled_score.py's inputs (cbi bench --metrics JSONs, predict_tiled_all.sh rows).
"""
import csv, glob, math, os, statistics as st, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def naive_groups(mdir, pdir, prefix):
    from heldout_score import key  # one row key for every score of the sweeps' CSVs
    out = {}
    for m in sorted(glob.glob(os.path.join(mdir, "meas-*.csv"))):
        g = os.path.basename(m)[5:-4]
        p = os.path.join(pdir, f"{prefix}-{g}.csv")
        if not os.path.exists(p):
            continue
        meas = {key(r): float(r["gpu_time_ms"]) for r in csv.DictReader(open(m)) if r["gpu_time_ms"]}
        pred = {key(r): float(r["predicted_ms"]) for r in csv.DictReader(open(p)) if r["predicted_ms"]}
        pairs = [(pred[k], meas[k]) for k in meas if k in pred]
        if pairs:
            kernel = next(k for k in meas if k in pred)[0]
            out[(mdir, g)] = (kernel, pairs)
    return out


def tiled_groups(mdir, pred_csv):
    from tiled_score import measured, predicted, rows_of
    out = {}
    for r in rows_of(measured(mdir), predicted(pred_csv)):
        out.setdefault((mdir, r["kernel"], r["size"]), (r["kernel"], []))[1].append((r["time_pred"], r["time_meas"]))
    return out


def main(argv):
    groups, i = {}, 0
    while i < len(argv):
        if argv[i] == "--naive":
            groups.update(naive_groups(*argv[i + 1:i + 4])); i += 4
        elif argv[i] == "--tiled":
            groups.update(tiled_groups(*argv[i + 1:i + 3])); i += 3
        else:
            sys.exit(__doc__)
    fam = {}
    for kernel, pairs in groups.values():
        d = [math.log(p / m) for p, m in pairs]
        f = fam.setdefault(kernel, {"abs": [], "pair": [], "groups": 0})
        f["groups"] += 1
        f["abs"] += [abs(x) for x in d]
        f["pair"] += [abs(d[a] - d[b]) for a in range(len(d)) for b in range(a + 1, len(d))]
    print("| family | groups | configurations | pairs | pairwise ratio error (tie tolerance) | mean abs ln(pred/meas) |")
    print("| --- | --- | --- | --- | --- | --- |")
    every = {"abs": [], "pair": [], "groups": 0}
    for k in sorted(fam):
        f = fam[k]
        for x in every:
            every[x] += f[x]
        print(f"| {k} | {f['groups']} | {len(f['abs'])} | {len(f['pair'])} | {st.mean(f['pair']):.4f} | {st.mean(f['abs']):.4f} |")
    print(f"| all | {every['groups']} | {len(every['abs'])} | {len(every['pair'])} | {st.mean(every['pair']):.4f} | {st.mean(every['abs']):.4f} |")


main(sys.argv[1:])
