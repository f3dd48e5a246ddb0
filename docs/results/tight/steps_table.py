"""Tables of the CTA steps probe (kernels/probes/cta_steps.cu; docs/results/tight/tails.md §1).

usage: python3 steps_table.py DIR   (DIR: tails/steps.tar.gz unpacked: steps-*.csv and ncu/ncu-*.csv)

Per configuration: ncu's L1 load-sector hit rate and L2 reads / L1 misses of the probe kernel; of
the pairs of CTAs that share an SM and start within 2 us of each other, the share that stays in
step (reaches every eighth of the k loop within 3% of a CTA's run time of each other), in the
first wave and after it; and, for column orders, how far apart in time the CTAs of one column strip
(which read the same B sectors) reach the middle of the k loop, across all SMs.
"""
import collections
import csv
import glob
import os
import statistics
import sys


def ncu_counts(path):
    rows = [r for r in csv.reader(open(path)) if len(r) > 5]
    head, vals = rows[0], {}
    for r in rows[1:]:
        d = dict(zip(head, r))
        vals[d['Metric Name']] = float(d['Metric Value'].replace(',', ''))
    sectors = vals['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum']
    hits = vals['l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum']
    misses = vals['l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum']
    l2 = vals['lts__t_sectors_srcunit_tex_op_read.sum']
    return 100 * hits / sectors, l2 / misses, vals['gpu__time_duration.sum'] / 1e6


def ctas_of(path):
    per = collections.defaultdict(list)
    for r in csv.DictReader(open(path)):
        per[int(r['cta'])].append(r)
    out = {}
    for c, ws in per.items():
        marks = [statistics.median(int(w['ns%d' % k]) for w in ws) for k in range(9)]
        out[c] = (int(ws[0]['smid']), marks)
    return out


def in_step(ctas):
    by_sm = collections.defaultdict(list)
    for c, (sm, m) in ctas.items():
        by_sm[sm].append((m[0], c, m))
    first_end = min(m[8] for _, m in ctas.values())
    tally = {True: [0, 0], False: [0, 0]}  # first wave?: [in step, pairs]
    for lst in by_sm.values():
        lst.sort()
        for i, (s, c, m) in enumerate(lst):
            for s2, c2, m2 in lst[i + 1:]:
                if s2 - s > 2000:
                    break
                run = m[8] - m[0]
                ok = all(abs(m[k] - m2[k]) < 0.03 * run for k in range(1, 9))
                t = tally[s < first_end]
                t[0] += ok
                t[1] += 1
    return tally


def strip_spread(ctas, per_strip):
    spreads = []
    for strip in range(len(ctas) // per_strip):
        t = sorted(ctas[c][1][4] for c in range(strip * per_strip, (strip + 1) * per_strip)
                   if c in ctas)
        if t:
            spreads.append((t[int(0.9 * (len(t) - 1))] - t[int(0.1 * (len(t) - 1))]) / 1e3)
    return statistics.median(spreads), len(spreads)


def main(d):
    ncu = sorted(glob.glob(os.path.join(d, 'ncu', 'ncu-*.csv')),
                 key=lambda p: int(p.split('-')[-1][:-4]))
    log = open(os.path.join(d, '..', 'steps-log.txt')).read() if os.path.exists(
        os.path.join(d, '..', 'steps-log.txt')) else ''
    order = [l.split(': exit')[0].split('cta_steps ')[1] for l in log.splitlines()
             if l.startswith('cta_steps ')]
    print('| type | W x H | depth | block | order | L1 hit % (ncu) | L2 reads / L1 misses | '
          'CTA pairs in step: first wave | after it | column strip: p10-p90 spread at k = D/2 (us) |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for i, cfg in enumerate(order):
        t, w, h, dd, b, c = cfg.split()
        path = os.path.join(d, 'steps-%s-%sx%s-d%s-b%s-c%s.csv' % (t, w, h, dd, b, c))
        ctas = ctas_of(path)
        hit, l2, _ = ncu_counts(ncu[i]) if i < len(ncu) else (float('nan'),) * 3
        tl = in_step(ctas)
        f = lambda x: '%d/%d' % tuple(x) if x[1] else '-'
        spread = '-'
        if c != '0':
            per = int(h) * int(c) // int(b)
            s, n = strip_spread(ctas, per)
            spread = '%.2f (%d strips)' % (s, n)
        print('| %s | %sx%s | %s | %s | %s | %.1f | %.2f | %s | %s | %s |' % (
            t, w, h, dd, b, 'linear' if c == '0' else 'column:' + c, hit, l2, f(tl[True]),
            f(tl[False]), spread))


if __name__ == '__main__':
    main(sys.argv[1])
