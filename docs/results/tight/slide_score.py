#!/usr/bin/env python3
import csv, sys, statistics
from collections import defaultdict
def spearman(a, b):
    def rank(x):
        o = sorted(range(len(x)), key=lambda i: x[i]); r = [0]*len(x)
        for k, i in enumerate(o): r[i] = k
        return r
    ra, rb = rank(a), rank(b); n = len(a)
    return 1 - 6*sum((p-q)**2 for p, q in zip(ra, rb))/(n*(n*n-1))
for f in sys.argv[1:]:
    rows = list(csv.DictReader(open(f)))
    by = defaultdict(list)
    for r in rows: by[r['group']].append(r)
    errs = [abs(float(r['time_pred'])/float(r['time_meas'])-1) for r in rows]
    out = []
    picks = 0; rhos = 0
    for g, rs in sorted(by.items()):
        tp = [float(r['time_pred']) for r in rs]; tm = [float(r['time_meas']) for r in rs]
        best = min(tm); pick = tm[tp.index(min(tp))]
        over = 100*(pick/best-1); picks += over <= 3
        rho = spearman(tp, tm); rhos += rho >= 0.8
        mae = 100*statistics.mean(abs(p/m-1) for p, m in zip(tp, tm))
        out.append(f"{g}:{rs[0]['type'][0]}{rs[0]['block']} mae{mae:.0f} rho{rho:.2f} pick+{over:.1f}")
    by_t = defaultdict(list)
    for r in rows: by_t[r['type']].append(abs(float(r['time_pred'])/float(r['time_meas'])-1))
    print(f"{f}: n={len(rows)} timeMAE {100*statistics.mean(errs):.1f}% worst {100*max(errs):.0f}% picks {picks}/{len(by)} rho>=.8 {rhos}/{len(by)} | " +
          ' '.join(f"{t} {100*statistics.mean(v):.1f}%" for t, v in sorted(by_t.items())))
    print('   ', ' | '.join(out))
    if rows and 'hit_pred' in rows[0]:
        hits = [abs(float(r['hit_pred']) - float(r['hit_meas'])) for r in rows]
        print('    L1 hit MAE %.2f worst %.1f' % (statistics.mean(hits), max(hits)))
