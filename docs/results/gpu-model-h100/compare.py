#!/usr/bin/env python3
"""Predicted against measured: the GPU model's errors on the CSV that predict.py writes.

usage: compare.py PRED.csv...   prints Markdown tables (overall and per group).
Measured L1 miss sectors are derived as the model's sector count x (1 - measured hit rate): the
sweep records hit rates, not sector counts, and the sector count of a load is fixed by coalescing.
"""
import csv, sys
from collections import defaultdict

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

rows = [r for f in sys.argv[1:] for r in csv.DictReader(open(f))]
for r in rows:
    r['l1_err'] = float(r['model_l1_hit_pct']) - float(r['gpu_l1_hit_pct'])
    sectors = float(r['model_l1_miss_sectors']) / max(1e-9, 1 - float(r['model_l1_hit_pct']) / 100)
    r['meas_miss'] = sectors * (1 - float(r['gpu_l1_hit_pct']) / 100)
    r['miss_ratio'] = float(r['model_l1_miss_sectors']) / max(1.0, r['meas_miss'])
    r['l2l1_ratio'] = float(r['model_l2_read_sectors']) * 32 / max(1.0, float(r['gpu_l2_to_l1_bytes']))
    r['t_ratio'] = float(r['model_predicted_ms']) / float(r['gpu_time_ms'])

def within(x):
    return 0.8 <= x <= 1.2

def summary(name, rs):
    errs = [abs(r['l1_err']) for r in rs]
    worst = max(rs, key=lambda r: abs(r['l1_err']))
    return (f"| {name} | {len(rs)} | {sum(errs) / len(errs):.1f} | {worst['l1_err']:+.1f} "
            f"({worst['kernel']} {worst['size']} {worst['order']} b{worst['block']}) | "
            f"{100 * sum(within(r['miss_ratio']) for r in rs) / len(rs):.0f}% | "
            f"{100 * sum(within(r['l2l1_ratio']) for r in rs) / len(rs):.0f}% | "
            f"{100 * sum(within(r['t_ratio']) for r in rs) / len(rs):.0f}% |")

print("| set | configs | L1 hit MAE (points) | worst L1 hit error | L1 miss sectors within ±20% | "
      "L2->L1 sectors within ±20% | time within ±20% |")
print("| --- | --- | --- | --- | --- | --- | --- |")
by_source = defaultdict(list)
for r in rows:
    by_source[r['source']].append(r)
for s, rs in sorted(by_source.items()):
    print(summary(s, rs))
print(summary('all', rows))
print()
print("| group (workload, size, block) | configs | Spearman rho (time) | model's pick | its measured time vs the measured best |")
print("| --- | --- | --- | --- | --- |")
groups = defaultdict(list)
for r in rows:
    groups[(r['kernel'], r['size'], r['stencil'], r['block'])].append(r)
for (k, size, st, b), rs in sorted(groups.items()):
    if len(rs) < 3:
        continue
    rho = spearman([float(r['model_predicted_ms']) for r in rs], [float(r['gpu_time_ms']) for r in rs])
    pick = min(rs, key=lambda r: float(r['model_predicted_ms']))
    best = min(float(r['gpu_time_ms']) for r in rs)
    print(f"| {k} {size}{' ' + st if k == 'stencil' else ''} b{b} | {len(rs)} | {rho:.2f} | "
          f"{pick['order']} | {100 * (float(pick['gpu_time_ms']) / best - 1):+.1f}% |")
print()
print("| source | workload | size | block | order | measured L1 hit % | model L1 hit % | L2->L1 MB measured | model | ms measured | model | bound |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    print(f"| {r['source']} | {r['kernel']} | {r['size']} | {r['block']} | {r['order']} | "
          f"{float(r['gpu_l1_hit_pct']):.1f} | {float(r['model_l1_hit_pct']):.1f} | "
          f"{float(r['gpu_l2_to_l1_bytes']) / 1e6:.0f} | {float(r['model_l2_read_sectors']) * 32 / 1e6:.0f} | "
          f"{float(r['gpu_time_ms']):.3f} | {float(r['model_predicted_ms']):.3f} | {r['model_bound']} |")
