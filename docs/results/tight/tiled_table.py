#!/usr/bin/env python3
"""The tiled kernels' measurements (docs/results/tight/h100/tiled): per kernel, size and block order,
DRAM bytes and the L2 hit rate from cbi bench --metrics (CUPTI) and from ncu, and their spread.
With --pred PRED.csv (cbi sweep --model gpu rows) the model's prediction and its error go beside.

usage: tiled_table.py DIR [--pred PRED.csv] > table.md"""
import csv, glob, json, os, sys

def ncu_rows(path):
    """ncu CSV -> list of {metric: value} in launch order."""
    rows = list(csv.reader(l for l in open(path) if l.startswith('"')))
    if not rows:
        return []
    h = rows[0]
    ii, mi, vi = h.index("ID"), h.index("Metric Name"), h.index("Metric Value")
    out = {}
    for r in rows[1:]:
        try:
            out.setdefault(int(r[ii]), {})[r[mi]] = float(r[vi].replace(",", ""))
        except ValueError:
            pass
    return [out[k] for k in sorted(out)]

def order_name(r):
    return r.get("block_order", "linear")

def main():
    d = sys.argv[1]
    pred = {}
    if "--pred" in sys.argv:
        for r in csv.DictReader(open(sys.argv[sys.argv.index("--pred") + 1])):
            key = (r["kernel"], r["size"], r.get("depth", "") or "0", r["block_order"])
            pred[key] = r
    print("| kernel | size | depth | block order | time ms | DRAM GB CUPTI | DRAM GB ncu | ncu/CUPTI | "
          "L2 hit % CUPTI | L2 hit % ncu |" + (" DRAM GB pred | err vs CUPTI | L2 hit % pred |" if pred else ""))
    print("|" + " --- |" * (10 + (3 if pred else 0)))
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        if "rep2" in path:
            continue
        base = os.path.basename(path)[:-5]
        kernel = "sgemm-tiled" if base.startswith("sgemm") else "stencil-smem"
        results = json.load(open(path))["results"]
        ncu_path = os.path.join(d, "ncu-" + base + ".csv")
        ncu = ncu_rows(ncu_path) if os.path.exists(ncu_path) else []
        for i, r in enumerate(results):
            m = r["metrics"]
            n = ncu[i] if i < len(ncu) else {}
            size = f'{r["width"]}x{r["height"]}' if r["width"] != r["height"] else str(r["width"])
            depth = str(r["depth"]) if kernel == "sgemm-tiled" else "-"
            a, b = m.get("dram__bytes_read.sum", 0) / 1e9, n.get("dram__bytes_read.sum", 0) / 1e9
            row = (f'| {kernel} | {size} | {depth} | {order_name(r)} | {r["median_ms"]:.3f} | {a:.3f} | '
                   f'{b:.3f} | {b / a if a else 0:.2f} | {m.get("lts__t_sector_hit_rate.pct", 0):.1f} | '
                   f'{n.get("lts__t_sector_hit_rate.pct", 0):.1f} |')
            if pred:
                key = (kernel, size, depth if depth != "-" else "0", order_name(r))
                p = pred.get(key)
                if p:
                    pd = float(p["dram__bytes_read.sum_pred"]) / 1e9
                    row += f' {pd:.3f} | {100 * (pd - a) / a:+.0f}% | {float(p["lts__t_sector_hit_rate.pct_pred"]):.1f} |'
                else:
                    row += " | | |"
            print(row)

if __name__ == "__main__":
    main()
