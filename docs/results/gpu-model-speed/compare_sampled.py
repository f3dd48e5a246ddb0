#!/usr/bin/env python3
"""The sampled mode (--sample-sms 12) against the full device, per group of configurations.

usage: compare_sampled.py FULL.csv SAMPLED.csv
Both CSVs are predict.py's output (docs/results/gpu-model-h100/predict.py) for the same rows, the
first on the full device, the second with `-- --sample-sms 12`. Prints, per (kernel, size, block)
group: the mean and worst |L1 hit rate difference| in points, the mean |predicted time ratio - 1|,
whether the fastest order by the sampled prediction is the full device's fastest, and the full
device's time of the sampled pick over the full device's best (1.000 = the same pick)."""
import csv, sys
from collections import defaultdict

HIT = 'l1tex__t_sector_hit_rate.pct_pred'
key = lambda r: (r['kernel'], r['size'], r['stencil'], r['type'], r['block'], r['order'])
full = {key(r): r for r in csv.DictReader(open(sys.argv[1]))}
sampled = {key(r): r for r in csv.DictReader(open(sys.argv[2]))}
groups = defaultdict(list)
for k, f in full.items():
    if k in sampled:
        groups[k[:5]].append((k[5], f, sampled[k]))
print('| kernel | size | block | orders | mean abs L1 hit diff (points) | worst (order) | '
      'mean abs time diff | same fastest order | full time of the sampled pick / best |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
all_diffs, all_time, same, n = [], [], 0, 0
for g, rows in sorted(groups.items(), key=lambda x: (x[0][0], int(x[0][1]), int(x[0][4]))):
    d = [(abs(float(s[HIT]) - float(f[HIT])), o) for o, f, s in rows]
    t = [abs(float(s['time_ms_pred']) / float(f['time_ms_pred']) - 1) for o, f, s in rows]
    best_full = min(rows, key=lambda x: float(x[1]['time_ms_pred']))
    pick = min(rows, key=lambda x: float(x[2]['time_ms_pred']))
    ratio = float(pick[1]['time_ms_pred']) / float(best_full[1]['time_ms_pred'])
    worst = max(d)
    all_diffs += [x for x, _ in d]
    all_time += t
    same += pick[0] == best_full[0]
    n += 1
    print(f'| {g[0]} | {g[1]} | {g[4]} | {len(rows)} | {sum(x for x, _ in d) / len(d):.2f} | '
          f'{worst[0]:.2f} ({worst[1]}) | {100 * sum(t) / len(t):.1f}% | '
          f'{"yes" if pick[0] == best_full[0] else "no: " + pick[0] + " for " + best_full[0]} | '
          f'{ratio:.3f} |')
print(f'\nall: {len(all_diffs)} configurations, mean abs L1 hit diff {sum(all_diffs) / len(all_diffs):.2f} '
      f'points, worst {max(all_diffs):.2f}; mean abs time diff {100 * sum(all_time) / len(all_time):.1f}%; '
      f'same fastest order in {same} of {n} groups')
