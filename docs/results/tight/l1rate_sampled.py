#!/usr/bin/env python3
"""Sampled (12 SMs) predictions of measured naive groups (matmul and stencil) with binary CBI.
usage: l1rate_sampled.py CBI OUT.csv SET[,SET...] [GROUP_REGEX]   (score: slide_score.py OUT.csv)"""
import csv, glob, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
cbi, out, want = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
only = re.compile(sys.argv[4] if len(sys.argv) > 4 else '.')
base = '/work/main/docs/results/tight/'
sets = {'Q': ('h100', 'lrc-cap/q'), 'R': ('h100', 'l2-bw/r'), 'N': ('h100', 'h100-fresh/fix'),
        'T': ('h200', 'dram-rw/t'), 'U': ('h200', 'slide/u'), 'P': ('h200', 'l1-rate/p')}
jobs = []
for name in want:
    dev, d = sets[name]
    for f in sorted(glob.glob((d if d.startswith('/') else base + d) + '/meas-*.csv')):
        g = os.path.basename(f)[5:-4]
        if not only.search(g):
            continue
        for r in csv.DictReader(open(f)):
            if r['gpu_time_ms']:
                jobs.append((g, dev, r))
def run(j):
    g, dev, r = j
    a = [cbi, 'simulate', '--model', 'gpu', '--device', dev, '--workload', r['kernel'], '--size', r['size'],
         '--type', r['type'], '--block', r['block'], '--order', r['order'], '--sample-sms', '12',
         '--format', 'json', '--jobs', '1']
    if r['depth']:
        a += ['--depth', r['depth']]
    if r['stencil']:
        a += ['--stencil', r['stencil']]
    p = subprocess.run(a, capture_output=True, text=True)
    js = json.loads(p.stdout)
    return dict(group=g, device=dev, kernel=r['kernel'], type=r['type'], block=r['block'], order=r['order'],
                time_pred=js['predicted_ms'], time_meas=float(r['gpu_time_ms']), bound=js.get('bound', ''),
                hit_pred=js['metrics']['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct'],
                hit_meas=float(r['gpu_l1_hit_pct']))
with ThreadPoolExecutor(int(os.environ.get('PAR', '2'))) as ex:
    rows = list(ex.map(run, jobs))
with open(out, 'w') as fo:
    w = csv.DictWriter(fo, fieldnames=list(rows[0]))
    w.writeheader(); w.writerows(rows)
