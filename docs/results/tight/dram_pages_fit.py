#!/usr/bin/env python3
"""kernels/probes/dram_pages' issue sweep (docs/results/tight/dram-pages.md §2): the copies whose
index takes `alu` more dependent instructions, against (T_mem^n + T_issue^n)^(1/n), T_mem the
copy's time at alu 0 and T_issue its ncu-counted warp instructions at the probe's own issue rate
(from its alu 96 rows, which the fit leaves out). Prints the table at n = 6 and the scan of n.
usage: dram_pages_fit.py [n]"""
import csv, math, os, sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'dram-pages')
rows = list(csv.DictReader(open(os.path.join(here, 'dram_pages.csv'))))
lines = [l for l in open(os.path.join(here, 'dram_pages-ncu.csv')) if l.startswith('"')]
ncu = {}
for r in csv.DictReader(lines):
    ncu.setdefault(int(r['ID']), {})[r['Metric Name']] = float(r['Metric Value'].replace(',', ''))
assert len(ncu) == len(rows)
hz, sms = 1.98e9, 132
pts, base, rate = [], {}, {}
for i, r in enumerate(rows):
    linear = r['tile_w'] == r['pitch'] and r['tile_h'] == '1'
    column32 = r['tile_w'] == '32' and r['tile_h'] == r['rows']
    if r['mode'] != 'copy' or r['resident'] != '0' or not (linear or column32):
        continue
    key = ('float' if r['elem_bytes'] == '4' else 'double', 'linear' if linear else 'column:32')
    inst = ncu[i]['smsp__inst_executed.sum']
    t = float(r['ms_median'])
    alu = int(r['alu'])
    if alu == 0:
        base.setdefault(key, t)
    elif alu == 96:
        rate[key] = inst / (sms * t * 1e-3 * hz)
    pts.append((key, alu, inst, t, int(r['pitch']) * int(r['rows']) // 32))


def predict(key, inst, n):
    issue = inst / (sms * rate[key] * hz) * 1e3
    if n is None:  # the larger of the two
        return issue, max(base[key], issue)
    return issue, max(base[key], (base[key] ** n + issue ** n) ** (1 / n))


n = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
print("| type | order | alu | instructions a warp | measured ms | T_issue ms | max(T_mem, T_issue) | norm n=%g | error |" % n)
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for key, alu, inst, t, warps in pts:
    if alu == 0 and (key, 0) in [(k, a) for k, a, *_ in pts[:pts.index((key, alu, inst, t, warps))]]:
        continue
    issue, p = predict(key, inst, n)
    print(f"| {key[0]} | {key[1]} | {alu} | {inst / warps:.0f} | {t:.4f} | {issue:.4f} | {max(base[key], issue):.4f} "
          f"| {p:.4f} | {p / t - 1:+.1%} |")
print("\nissue rates (warp instructions an SM a cycle, alu 96):", {f"{k[0]} {k[1]}": round(v, 2) for k, v in rate.items()})
print("\n| n | mean abs ln error | bias | worst |  (alu 8-64, 20 points)\n| --- | --- | --- | --- |")
for m in (None, 2, 3, 4, 5, 6, 8):
    e = [math.log(predict(k, i, m)[1] / t) for k, a, i, t, w in pts if 0 < a < 96]
    print(f"| {'max' if m is None else m} | {sum(map(abs, e)) / len(e):.4f} | {sum(e) / len(e):+.4f} | {max(e, key=abs):+.3f} |")
