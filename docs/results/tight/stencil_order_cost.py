#!/usr/bin/env python3
"""The naive stencils' measured time under column and tile orders against linear, over every
measured group under docs/results/tight (meas-*.csv of cbi sweep --backend gpu, H100 and H200),
each group once, by the bytes the kernel moves a second in linear (input read once and output
written once: 2 x W x H x element bytes / time). y-set.md §5.

usage: stencil_order_cost.py [ROOT]   (ROOT: docs/results/tight, the default)
"""
import csv, glob, os, sys

ORDERS = ["column:32", "column:128", "column:512", "tile:16"]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rows, seen = [], set()
    for f in sorted(glob.glob(os.path.join(root, "**", "meas-*.csv"), recursive=True)):
        d = {r["order"]: r for r in csv.DictReader(open(f))
             if r["kernel"] == "stencil" and r["gpu_time_ms"]}
        if "linear" not in d:
            continue
        lin = d["linear"]
        key = (lin["size"], lin["stencil"], lin["type"], lin["block"], lin["gpu_device"])
        if key in seen:
            continue
        seen.add(key)
        w, h = (map(int, lin["size"].split("x")) if "x" in lin["size"] else (int(lin["size"]),) * 2)
        eb = {"half": 2, "float": 4, "double": 8}[lin["type"]]
        t = float(lin["gpu_time_ms"])
        ratio = [float(d[o]["gpu_time_ms"]) / t - 1 if o in d else float("nan") for o in ORDERS]
        name = os.path.relpath(f, root).replace("meas-", "").replace(".csv", "")
        rows.append((2 * w * h * eb / t / 1e6, name, lin, t, ratio))
    rows.sort(key=lambda r: -r[0])
    print("| group | device | type | window | block | size | linear ms | linear GB/s | "
          + " | ".join(ORDERS) + " |")
    print("| --- " * (8 + len(ORDERS)) + "|")
    for gbs, name, lin, t, ratio in rows:
        print(f"| {name} | {lin['gpu_device'].replace('NVIDIA ', '')} | {lin['type']} | {lin['stencil']} | "
              f"{lin['block']} | {lin['size']} | {t:.4f} | {gbs:.0f} | "
              + " | ".join(f"{x:+.1%}" for x in ratio) + " |")


if __name__ == "__main__":
    main()
