#!/usr/bin/env python3
"""The GPU model's L2 hit rate (lts__t_sector_hit_rate.pct) against the measured one, for two sets
of predictions of the same measured groups (docs/results/tight/tails.md §6).

usage: l2hit_score.py MEAS_DIR BEFORE_DIR AFTER_DIR
  MEAS_DIR/meas-G.csv: cbi sweep --backend gpu --metrics (kernels/scripts/fix_run.sh);
  BEFORE_DIR/pred-after-G.csv, AFTER_DIR/pred-after-G.csv: cbi sweep --model gpu over the same axes.
Prints, per set, n, the MAE and worst error in points, how many are within 5 points, and per group
the MAE and worst. Rows are joined as heldout_score.py joins them.
"""
import csv, glob, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heldout_score import key

COL = "lts__t_sector_hit_rate.pct"


def errors(meas_dir, pred_dir):
    per = {}
    for mpath in sorted(glob.glob(os.path.join(meas_dir, "meas-*.csv"))):
        g = os.path.basename(mpath)[len("meas-"):-4]
        ppath = os.path.join(pred_dir, "pred-after-%s.csv" % g)
        if not os.path.exists(ppath):
            continue
        pred = {key(r): r for r in csv.DictReader(open(ppath))}
        for r in csv.DictReader(open(mpath)):
            p = pred.get(key(r))
            if p and r.get(COL + "_meas") and p.get(COL + "_pred"):
                per.setdefault(g, []).append(float(p[COL + "_pred"]) - float(r[COL + "_meas"]))
    return per


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    print("| predictions | n | MAE (points) | worst | within 5 points | per group: MAE (worst) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, d in (("before", sys.argv[2]), ("after", sys.argv[3])):
        per = errors(sys.argv[1], d)
        allv = [e for v in per.values() for e in v]
        if not allv:
            sys.exit("no rows joined for " + d)
        groups = ", ".join("%s %.1f (%+.1f)" % (g, sum(map(abs, v)) / len(v), max(v, key=abs))
                           for g, v in per.items())
        print("| %s (%s) | %d | %.2f | %+.2f | %d | %s |" %
              (label, d, len(allv), sum(map(abs, allv)) / len(allv), max(allv, key=abs),
               sum(abs(e) <= 5 for e in allv), groups))


if __name__ == "__main__":
    main()
