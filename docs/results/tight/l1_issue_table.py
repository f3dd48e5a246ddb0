#!/usr/bin/env python3
"""The l1_issue probe (docs/results/tight/l1-issue.md §1): per mode and shape, cycles a warp load
(event-timed: ms x SM clock / loads an SM) against its L1 wavefronts and its issue cycles (ncu's
warp instructions a load / the 4 schedulers at the probe's own top rate, the median of its rows
whose issue is the larger), and the error of the larger of the two.

usage: l1_issue_table.py [DIR]   (DIR: l1-issue/, holding l1_issue.csv and l1_issue-ncu.csv)"""
import csv, io, os, statistics, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'l1-issue')
CLOCK_MHZ, SMS = 1980, 132
rows = list(csv.DictReader(open(os.path.join(here, 'l1_issue.csv'))))
txt = open(os.path.join(here, 'l1_issue-ncu.csv')).read()
ncu = [r for r in csv.reader(io.StringIO(txt[txt.find('"ID"'):])) if len(r) > 10]
h = ncu[0]
ki, mi, vi = h.index('ID'), h.index('Metric Name'), h.index('Metric Value')
per = {}
for r in ncu[1:]:
    per.setdefault(int(r[ki]), {})[r[mi]] = float(r[vi].replace(',', '')) if r[vi] not in ('n/a', '') else float('nan')
launches = [per[k] for k in sorted(per)]
assert len(launches) == len(rows), (len(launches), len(rows))
for r, n in zip(rows, launches):
    req = n['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']
    r['inst'] = n['smsp__inst_executed.sum'] / req
    r['cyc'] = float(r['ms_median']) * 1e-3 * CLOCK_MHZ * 1e6 / (float(r['requests']) / SMS)
# The probe's top issue rate: warp instructions a cycle an SM where the FFMAs dominate (alu >= 16).
rate = statistics.median(r['inst'] / r['cyc'] for r in rows if int(r['alu']) >= 16)
print(f"top issue rate: {rate:.2f} warp instructions an SM a cycle (alu >= 16 rows)\n")
print("| mode | shape | wavefronts | alu | instructions a load | cycles a load | issue cycles | max(wavefronts, issue) | error |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
errs = {}
for r in rows:
    issue = r['inst'] / rate
    floor = {'chase': 1.0, 'stream': 1.0}[r['mode']] * int(r['wavefronts'])
    m = max(floor, issue)
    e = m / r['cyc'] - 1
    errs.setdefault(r['mode'], []).append(e)
    if int(r['alu']) in (0, 2, 4, 8, 12, 16, 24):
        print(f"| {r['mode']} | {r['shape']} | {r['wavefronts']} | {r['alu']} | {r['inst']:.2f} | {r['cyc']:.2f} | {issue:.2f} | {m:.2f} | {e:+.1%} |")
for mode, e in errs.items():
    print(f"\n{mode}: the larger of the two, mean |error| {statistics.mean(map(abs, e)):.1%}, worst {max(e, key=abs):+.1%} ({len(e)} rows)")
