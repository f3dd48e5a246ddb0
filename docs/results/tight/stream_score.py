#!/usr/bin/env python3
"""The DRAM stream and issue term (docs/results/tight/dram-pages.md §3) scored on every measured
H200 naive configuration: main's predictions (dram-pages/pb.tar.gz: `cbi simulate --model gpu
--format json`, full device, before the term) with and without the term, which is computed from
their bounds as the model computes it (sim/src/gpu_model.cpp): max(predicted, (replay^n +
issue^n)^(1/n)) where the DRAM bound is at least `share` of the replay.

usage: stream_score.py [n share]   (default 6 0.57, the h200 row's)
Prints per kernel the time MAE, ρ ≥ 0.8 and picks within 3% before and after, then the groups
whose predictions change."""
import csv, glob, json, os, sys, tarfile, collections

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from heldout_score import avg_rank, pearson  # noqa: E402

n = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
share = float(sys.argv[2]) if len(sys.argv) > 2 else 0.57
types = {2: 'half', 4: 'float', 8: 'double'}
pred = {}
with tarfile.open(os.path.join(here, 'dram-pages', 'pb.tar.gz')) as tf:
    for m in tf.getmembers():
        if not m.name.endswith('.json'):
            continue
        j = json.load(tf.extractfile(m))
        c = j['config']
        st = c['workload'] == 'stencil'
        key = (c['workload'], f"{c['width']}x{c['height']}",
               f"{c['stencil_w']}x{c['stencil_h']}" if st else '',
               '' if st else str(c['depth']), types[c['elem_bytes']], str(c['block']), c['order'])
        pred[key] = j


def after(j):
    t = j['predicted_ms']
    if j['dram_bound_ms'] < share * j['replay_ms']:
        return t
    return max(t, (j['replay_ms'] ** n + j['arithmetic_bound_ms'] ** n) ** (1 / n))


groups = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(here, '**', 'meas-*.csv'), recursive=True)):
    for r in csv.DictReader(open(f)):
        if 'H200' not in (r.get('gpu_device') or '') or r.get('kernel') not in ('stencil', 'matmul'):
            continue
        if not r.get('gpu_time_ms') or (r.get('remap_math') or 'fast') != 'fast':
            continue
        st = r['kernel'] == 'stencil'
        key = (r['kernel'], r['size'], r['stencil'] if st else '', '' if st else r['depth'],
               r['type'], r['block'], r['order'])
        if key in pred:
            groups[(os.path.relpath(f, here),) + key[:6]].append((key[6], float(r['gpu_time_ms']), pred[key]))


def spearman(a, b):
    r = pearson(avg_rank(a), avg_rank(b))
    return 0.0 if r != r else r  # every prediction alike: no ranking


def score(kernel, fn):
    err, meas, prd, rhos, picks = [], [], [], [], []
    for g, v in groups.items():
        if g[1] != kernel or len(v) < 5:
            continue
        m = [x[1] for x in v]
        p = [fn(x[2]) for x in v]
        err += [b / a - 1 for a, b in zip(m, p)]
        meas += m
        prd += p
        rhos.append(spearman(m, p))
        picks.append(m[p.index(min(p))] / min(m) - 1)
    worst = max(err, key=abs)
    return (f"| {kernel} | {len(err)} | {len(rhos)} | {sum(map(abs, err)) / len(err):.1%} | {worst:+.1%} "
            f"| {pearson(meas, prd):.3f} | {sum(abs(e) <= 0.2 for e in err)}/{len(err)} "
            f"| {sum(r >= 0.8 for r in rhos)}/{len(rhos)} | {sorted(rhos)[len(rhos) // 2]:.2f} "
            f"| {sum(x <= 0.03 for x in picks)}/{len(picks)} | {max(picks):+.1%} |")


print(f"n = {n:g}, DRAM share >= {share:g}\n")
print("| kernel | configurations | groups | time MAE | worst | Pearson r | within ±20% | ρ ≥ 0.8 | median ρ "
      "| pick within 3% | worst pick |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for kernel in ('stencil', 'matmul'):
    print(score(kernel, lambda j: j['predicted_ms']).replace(f"| {kernel} |", f"| {kernel}, before |"))
    print(score(kernel, after).replace(f"| {kernel} |", f"| {kernel}, after |"))
print("\nGroups whose predictions change:\n")
print("| measured in | size | window | type | block | changed | time MAE before → after | ρ before → after "
      "| pick before → after (over the measured best) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for g, v in sorted(groups.items()):
    changed = sum(after(x[2]) != x[2]['predicted_ms'] for x in v)
    if not changed or len(v) < 5:
        continue
    m = [x[1] for x in v]
    cells = []
    for fn in (lambda j: j['predicted_ms'], after):
        p = [fn(x[2]) for x in v]
        k = p.index(min(p))
        cells.append((sum(abs(b / a - 1) for a, b in zip(m, p)) / len(m), spearman(m, p),
                      f"{v[k][0]} {m[k] / min(m) - 1:+.1%}"))
    (b_mae, b_rho, b_pick), (a_mae, a_rho, a_pick) = cells
    print(f"| {g[0]} | {g[2]} | {g[3] or '-'} | {g[5]} | {g[6]} | {changed}/{len(v)} | {b_mae:.1%} → {a_mae:.1%} "
          f"| {b_rho:+.2f} → {a_rho:+.2f} | {b_pick} → {a_pick} |")
