#!/usr/bin/env python3
"""The held-out groups' warp instructions, measured (ncu smsp__inst_executed.sum, h100/inst/inst.csv
from kernels/scripts/tight_inst.sh) against the GPU model's instruction count (its
arithmetic_bound_ms x SMs x issue_per_cycle x clock, h100/inst/model-arithmetic.csv from
`cbi simulate --model gpu --sample-sms 12 --format json`), with the issue rate the H100 reached
(instructions per SM per elapsed cycle) and the measured times of heldout-scored.csv.

usage: inst_table.py   (run in docs/results/tight)"""
import csv, collections

SMS, ISSUE, HZ = 132, 2.75, 1.98e9
meas = collections.defaultdict(dict)
for row in csv.reader(open("h100/inst/inst.csv")):
    if len(row) < 17 or not row[-3].startswith(("smsp__", "sm__", "gpu__")):
        continue
    meas[(row[0], row[1])][row[-3]] = float(row[-1].replace(",", ""))
model = {(r["group"], r["order"]): float(r["arithmetic_bound_ms"])
         for r in csv.DictReader(open("h100/inst/model-arithmetic.csv"))}
scored = {(r["group"], r["order"]): r for r in csv.DictReader(open("heldout-scored.csv"))
          if r["device"] == "h100"}
print("| group | order | warp instructions: model | measured | model / measured | H100 issue rate "
      "(per SM per cycle) | measured ms | predicted ms (bound) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for k in sorted(meas):
    m = meas[k]
    inst_m = m["smsp__inst_executed.sum"]
    inst_p = model[k] * 1e-3 * SMS * ISSUE * HZ
    rate = inst_m / (SMS * m["sm__cycles_elapsed.max"])
    s = scored.get(k)
    t = (f"{float(s['time_meas']):.4f} | {float(s['time_pred']):.4f} ({s['bound']})" if s else "– | –")
    print(f"| {k[0]} | {k[1]} | {inst_p / 1e6:.1f} M | {inst_m / 1e6:.1f} M | {inst_p / inst_m:.2f} | "
          f"{rate:.2f} | {t} |")
