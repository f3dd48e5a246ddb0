#!/usr/bin/env python3
"""Runs the GPU model (cbi simulate --model gpu) for measured rows of `cbi sweep --backend gpu
--metrics` CSVs and writes one CSV of predicted beside measured values.

usage: predict.py CBI OUT.csv FILTER JOBS MEASURED.csv... [-- EXTRA CBI ARGS]
FILTER: a Python expression over the row dict r, e.g. "r['block'] == '256'".
EXTRA CBI ARGS go to every `cbi simulate` call, e.g. `-- --sample-sms 12`.
"""
import csv, json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

argv = sys.argv[1:]
extra = argv[argv.index('--') + 1:] if '--' in argv else []
argv = argv[:argv.index('--')] if '--' in argv else argv
cbi, out, flt, jobs, files = argv[0], argv[1], argv[2], int(argv[3]), argv[4:]
rows = []
for f in files:
    for r in csv.DictReader(open(f)):
        if eval(flt, {}, {'r': r}):
            r['source'] = f.split('/')[-1]
            rows.append(r)

def predict(r):
    args = [cbi, 'simulate', '--model', 'gpu', '--device', 'h100', '--workload', r['kernel'],
            '--size', r['size'], '--order', r['order'], '--block', r['block'], '--format', 'json'] + extra
    if r['kernel'] == 'stencil':
        args += ['--stencil', r['stencil']]
    if r['type'] != 'float':
        args += ['--elem-bytes', {'half': '2', 'double': '8'}[r['type']]]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(' '.join(args) + ': ' + p.stderr)
    j = json.loads(p.stdout)
    return j['rows'][0], float(j['meta']['seconds'])

with ThreadPoolExecutor(jobs) as pool:
    results = list(pool.map(predict, rows))

keys = ['source', 'kernel', 'size', 'stencil', 'type', 'block', 'order']
with open(out, 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(keys + ['gpu_time_ms', 'gpu_l1_hit_pct', 'gpu_l2_hit_pct', 'gpu_l2_to_l1_bytes',
                       'gpu_dram_read_bytes', 'model_predicted_ms', 'model_bound', 'model_l1_hit_pct',
                       'model_l1_miss_sectors', 'model_l2_read_sectors', 'model_l2_hit_pct',
                       'model_dram_read_bytes', 'model_requests', 'model_seconds'])
    for r, (m, secs) in zip(rows, results):
        w.writerow([r[k] for k in keys] +
                   [r['gpu_time_ms'], r['gpu_l1_hit_pct'], r['gpu_l2_hit_pct'],
                    r['gpu_l2_to_l1_bytes'], r['gpu_dram_read_bytes'], m['predicted_ms'], m['bound'],
                    m['l1tex__t_sector_hit_rate.pct'],
                    m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum'],
                    m['lts__t_sectors_srcunit_tex_op_read.sum'], m['lts__t_sector_hit_rate.pct'],
                    m['dram__bytes_read.sum'], m['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'],
                    secs])
print(f'{len(rows)} rows -> {out}')
