#!/usr/bin/env python3
"""Sampled (12 SMs) predictions of measured naive matmul groups under a model variant (env)."""
import csv, glob, json, os, subprocess, sys, statistics
from concurrent.futures import ThreadPoolExecutor
cbi, variant, out = sys.argv[1], sys.argv[2], sys.argv[3]
sets = {'Q': ('h100', 'lrc-cap/q'), 'R': ('h100', 'l2-bw/r'), 'N': ('h100', 'h100-fresh/fix'),
        'T': ('h200', 'dram-rw/t'), 'Z': ('h200', 'final/z'), 'X': ('h200', 'final/x'), 'U': ('h200', '/work/exp/u')}
want = sys.argv[4].split(',') if len(sys.argv) > 4 else list(sets)
env = dict(os.environ)
for kv in variant.split(';'):
    if '=' in kv:
        k, v = kv.split('='); env[k] = v
base = '/work/main/docs/results/tight/'
jobs = []
for name in want:
    dev, d = sets[name]
    for f in sorted(glob.glob((d if d.startswith('/') else base + d) + '/meas-*.csv')):
        for r in csv.DictReader(open(f)):
            if r['kernel'] != 'matmul' or not r['gpu_time_ms'] or r['type'] not in os.environ.get('TYPES', 'half,float,double').split(','):
                continue
            g = os.path.basename(f)[5:-4]
            jobs.append((g, dev, r))
types = {'half': 2, 'float': 4, 'double': 8}
def run(j):
    g, dev, r = j
    a = [cbi, 'simulate', '--model', 'gpu', '--device', dev, '--workload', 'matmul', '--size', r['size'],
         '--type', r['type'], '--block', r['block'], '--order', r['order'], '--sample-sms', '12',
         '--format', 'json', '--jobs', '1']
    if r['depth']:
        a += ['--depth', r['depth']]
    p = subprocess.run(a, capture_output=True, text=True, env=env)
    js = json.loads(p.stdout)
    pm = js['predicted_ms']
    return dict(group=g, device=dev, type=r['type'], block=r['block'], order=r['order'],
                time_pred=pm, time_meas=float(r['gpu_time_ms']),
                hit_pred=js['metrics']['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct'],
                hit_meas=float(r['gpu_l1_hit_pct']))
with ThreadPoolExecutor(int(os.environ.get('PAR', '2'))) as ex:
    rows = list(ex.map(run, jobs))
with open(out, 'w') as fo:
    w = csv.DictWriter(fo, fieldnames=list(rows[0]))
    w.writeheader(); w.writerows(rows)
