#!/usr/bin/env python3
"""The held-out set as measured: per group its configuration, the measured best order and every
order within 3% of it (what a tune pick must land in, issue 18 §4 / issue 20 §2), and the range of
the L1 hit rate.  usage: heldout_summary.py DIR"""
import csv, glob, os, sys

def main():
    print("| group | kernel | size | window | depth | type | block | orders | measured best (ms) | "
          "within 3% of the best | L1 hit % range |")
    print("|" + " --- |" * 11)
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "heldout-*.csv"))):
        rows = list(csv.DictReader(open(path)))
        g = os.path.basename(path)[8:-4]
        r = rows[0]
        t = {x["order"]: float(x["gpu_time_ms"]) for x in rows}
        best = min(t, key=t.get)
        near = sorted((o for o in t if t[o] <= 1.03 * t[best]), key=t.get)
        hits = [float(x["gpu_l1_hit_pct"]) for x in rows]
        print(f"| {g} | {r['kernel']} | {r['size']} | {r['stencil'] or '-'} | {r['depth'] or '-'} | "
              f"{r['type']} | {r['block']} | {len(rows)} | {best} ({t[best]:.4f}) | {', '.join(near)} | "
              f"{min(hits):.1f}–{max(hits):.1f} |")

if __name__ == "__main__":
    main()
