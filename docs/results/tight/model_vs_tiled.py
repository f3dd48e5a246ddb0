#!/usr/bin/env python3
"""The GPU model's predictions for the tiled kernels (predict_tiled.sh CSVs) beside the H100's
measurements (cbi bench --metrics JSONs): DRAM bytes, L2 hit rate and time, with the error of each
and whether the DRAM error lies within the issue's ±20% and the L2 hit rate within 5 points.

usage: model_vs_tiled.py MEASURED_DIR PRED.csv..."""
import csv, json, os, sys

def main():
    mdir, preds = sys.argv[1], sys.argv[2:]
    meas = {}
    for f in os.listdir(mdir):
        if f.endswith(".json") and "rep2" not in f:
            kernel = "sgemm-tiled" if f.startswith("sgemm") else "stencil-smem"
            for r in json.load(open(os.path.join(mdir, f)))["results"]:
                size = f'{r["width"]}x{r["height"]}' if r["width"] != r["height"] else str(r["width"])
                meas[(kernel, size, r.get("block_order", "linear"))] = r
    print("| kernel | size | block order | SMs simulated | DRAM GB pred / meas | DRAM error | L2 hit % pred / meas | "
          "time ms pred / meas (bound) | model s |")
    print("|" + " --- |" * 9)
    n = within_dram = within_l2 = 0
    for path in preds:
        for p in csv.DictReader(open(path)):
            order = p["block_order"].replace("tile:8x8", "tile:8")
            m = meas.get((p["kernel"], p["size"], order))
            if not m:
                continue
            dp, dm = float(p["dram__bytes_read.sum"]) / 1e9, m["metrics"]["dram__bytes_read.sum"] / 1e9
            lp, lm = float(p["lts__t_sector_hit_rate.pct"]), m["metrics"]["lts__t_sector_hit_rate.pct"]
            err = 100 * (dp - dm) / dm
            full = p["sample_sms"] == "0"
            if full:
                n += 1
                within_dram += abs(err) <= 20
                within_l2 += abs(lp - lm) <= 5
            print(f'| {p["kernel"]} | {p["size"]} | {order} | {"all" if full else p["sample_sms"]} | '
                  f'{dp:.3f} / {dm:.3f} | {err:+.0f}% | {lp:.1f} / {lm:.1f} | '
                  f'{float(p["predicted_ms"]):.3f} / {m["median_ms"]:.3f} ({p["bound"]}) | '
                  f'{float(p["model_seconds"]):.0f} |')
    print(f"\nFull device: DRAM within ±20% in {within_dram} of {n}; L2 hit rate within 5 points in "
          f"{within_l2} of {n}.")

if __name__ == "__main__":
    main()
