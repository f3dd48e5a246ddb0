#!/usr/bin/env python3
"""Scores `cbi tune`'s picks against measured times (issue 18 §4): for each group of a measured CSV
(kernel, size, stencil, type, block), runs `cbi tune` over the group's orders and reports the pick,
its measured time against the measured best, whether it is within 3%, and whether the measured best
is in the model's tie group 1 ("indistinguishable by the model").

usage: score_tune.py CBI MEASURED.csv [OUT.csv] [-- EXTRA TUNE ARGS]
MEASURED.csv: columns kernel, size, stencil, type, block, order and a measured time, either
time_ms_meas (pred-vs-meas.csv) or median_ms (`cbi sweep --backend gpu` CSVs). EXTRA TUNE ARGS go
to every `cbi tune` call: `-- --search full` scores the full search, the default the staged one.
Prints a Markdown table and a summary line; OUT.csv, if given, gets the same rows.
Example: score_tune.py build/bin/cbi docs/results/gpu-model-h100/pred-vs-meas.csv -- --jobs 2
"""
import collections, csv, json, subprocess, sys

argv = sys.argv[1:]
extra = argv[argv.index('--') + 1:] if '--' in argv else []
argv = argv[:argv.index('--')] if '--' in argv else argv
cbi, measured = argv[0], argv[1]
out = argv[2] if len(argv) > 2 else None

groups = collections.OrderedDict()
for r in csv.DictReader(open(measured)):
    t = r.get('time_ms_meas') or r.get('median_ms')
    if not t:
        continue
    key = (r['kernel'], r['size'], r.get('stencil', '-'), r.get('type', 'float'), r['block'])
    groups.setdefault(key, {})[r['order']] = float(t)

rows = []
for (kernel, size, stencil, typ, block), times in groups.items():
    args = [cbi, 'tune', '--device', 'h100', '--workload', kernel, '--size', size, '--block', block,
            '--orders', ','.join(times), '--format', 'json'] + extra
    if kernel == 'stencil' and stencil not in ('', '-'):
        args += ['--stencil', stencil]
    if typ != 'float':
        args += ['--elem-bytes', {'half': '2', 'double': '8'}[typ]]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(' '.join(args) + ': ' + p.stderr)
    j = json.loads(p.stdout)
    ranking = j['ranking']
    pick = ranking[0]['order']
    tied = [x['order'] for x in ranking if x.get('tie_group') == 1]
    best = min(times, key=times.get)
    over = 100.0 * (times[pick] - times[best]) / times[best]
    rows.append({'group': f'{kernel} {size} {stencil} {typ} b{block}', 'orders': len(times),
                 'pick': pick, 'pick_vs_best_pct': round(over, 2), 'within_3pct': over <= 3.0,
                 'measured_best': best, 'best_in_tie_group': best in tied,
                 'tie_group_size': len(tied)})

cols = list(rows[0].keys()) if rows else []
print('| ' + ' | '.join(cols) + ' |')
print('|' + ' --- |' * len(cols))
for r in rows:
    print('| ' + ' | '.join(str(r[c]) for c in cols) + ' |')
n = len(rows)
print(f'\n{sum(r["within_3pct"] for r in rows)} of {n} picks within 3% of the measured best; '
      f'the measured best in tie group 1 in {sum(r["best_in_tie_group"] for r in rows)} of {n}.')
if out:
    with open(out, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
