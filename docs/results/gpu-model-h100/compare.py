#!/usr/bin/env python3
"""Predicted against measured: the GPU model's errors on the CSV that predict.py writes.

usage: compare.py PRED.csv...   prints Markdown tables: per set (tuned / untuned) and per source
file, per (workload, size, block) group, and one row per configuration.
"Within ±20%" means 0.8 <= predicted / measured <= 1.2. The measured L1 miss sectors are derived
(predict.py says how).
"""
import csv, sys
from collections import defaultdict

HIT = 'l1tex__t_sector_hit_rate.pct'
MISS = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum'
L2READ = 'lts__t_sectors_srcunit_tex_op_read.sum'

def rank(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r

def spearman(a, b):
    ra, rb = rank(a), rank(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float('nan')

def f(r, k):
    return float(r[k])

rows = [r for path in sys.argv[1:] for r in csv.DictReader(open(path))]
for r in rows:
    r['l1_err'] = f(r, HIT + '_pred') - f(r, HIT + '_meas')
    r['miss_ratio'] = f(r, MISS + '_pred') / max(1.0, f(r, MISS + '_meas'))
    r['l2l1_ratio'] = f(r, L2READ + '_pred') / max(1.0, f(r, L2READ + '_meas'))
    r['t_ratio'] = f(r, 'time_ms_pred') / f(r, 'time_ms_meas')

def within(x):
    return 0.8 <= x <= 1.2

def name(r):
    st = ' ' + r['stencil'] if r['kernel'] == 'stencil' else ''
    return f"{r['kernel']} {r['size']}{st} {r['order']} b{r['block']}"

def summary(label, rs):
    errs = [abs(r['l1_err']) for r in rs]
    worst = max(rs, key=lambda r: abs(r['l1_err']))
    return (f"| {label} | {len(rs)} | {sum(errs) / len(errs):.1f} | {worst['l1_err']:+.1f} "
            f"({name(worst)}) | {100 * sum(within(r['miss_ratio']) for r in rs) / len(rs):.0f}% | "
            f"{100 * sum(within(r['l2l1_ratio']) for r in rs) / len(rs):.0f}% | "
            f"{100 * sum(within(r['t_ratio']) for r in rs) / len(rs):.0f}% |")

print("| set | configs | L1 hit MAE (points) | worst L1 hit error | L1 miss sectors within ±20% | "
      "L2->L1 sectors within ±20% | time within ±20% |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for label, key in (('set', 'set'), ('source', 'source')):
    by = defaultdict(list)
    for r in rows:
        by[r[key]].append(r)
    for k, rs in sorted(by.items()):
        print(summary(k, rs))
print(summary('all', rows))
print()
print("| set | group (workload, size, block) | configs | Spearman rho (time) | model's pick | its measured "
      "time vs the measured best | measured best |")
print("| --- | --- | --- | --- | --- | --- | --- |")
groups = defaultdict(list)
for r in rows:
    groups[(r['set'], r['kernel'], int(r['size']), r['stencil'], int(r['block']))].append(r)
rhos = defaultdict(list)
for (s, k, size, st, b), rs in sorted(groups.items()):
    if len(rs) < 3:
        continue
    rho = spearman([f(r, 'time_ms_pred') for r in rs], [f(r, 'time_ms_meas') for r in rs])
    rhos[s].append(rho)
    pick = min(rs, key=lambda r: f(r, 'time_ms_pred'))
    best = min(rs, key=lambda r: f(r, 'time_ms_meas'))
    print(f"| {s} | {k} {size}{' ' + st if k == 'stencil' else ''} b{b} | {len(rs)} | {rho:.2f} | "
          f"{pick['order']} | {100 * (f(pick, 'time_ms_meas') / f(best, 'time_ms_meas') - 1):+.1f}% | "
          f"{best['order']} |")
print()
for s, v in sorted(rhos.items()):
    print(f"{s}: {len(v)} groups, rho >= 0.8 in {sum(x >= 0.8 for x in v)}, median rho "
          f"{sorted(v)[len(v) // 2]:.2f}")
print()
print("| set | configuration | L1 hit % meas | pred | L1 miss Msectors meas* | pred | L2->L1 Msectors "
      "meas | pred | ms meas | pred | bound |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    print(f"| {r['set']} | {name(r)} | {f(r, HIT + '_meas'):.1f} | {f(r, HIT + '_pred'):.1f} | "
          f"{f(r, MISS + '_meas') / 1e6:.2f} | {f(r, MISS + '_pred') / 1e6:.2f} | "
          f"{f(r, L2READ + '_meas') / 1e6:.2f} | {f(r, L2READ + '_pred') / 1e6:.2f} | "
          f"{f(r, 'time_ms_meas'):.3f} | {f(r, 'time_ms_pred'):.3f} | {r['bound']} |")
