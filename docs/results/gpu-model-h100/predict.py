#!/usr/bin/env python3
"""Runs the GPU model (cbi simulate --model gpu) for measured rows of `cbi sweep --backend gpu
--metrics` CSVs and writes one CSV of predicted beside measured values, one row per configuration.

usage: predict.py CBI OUT.csv FILTER JOBS MEASURED.csv... [-- EXTRA CBI ARGS]
FILTER: a Python expression over the row dict r, e.g. "r['block'] == '256'".
EXTRA CBI ARGS go to every `cbi simulate` call, e.g. `-- --sample-sms 12`.

Columns: the configuration (source, set, kernel, size, stencil, type, block, order); for each
counter, `<ncu metric>_pred` (the model) and `<ncu metric>_meas` (the H100); `time_ms_pred`
(predicted_ms) and `time_ms_meas` (cbi bench's median kernel time); the model's bound terms
(`replay_ms` ... `arithmetic_bound_ms`, `bound`) and its wall time (`model_seconds`).
Measured columns, from the sweep CSV:
  l1tex__t_sector_hit_rate.pct_meas                = gpu_l1_hit_pct
  lts__t_sector_hit_rate.pct_meas                  = gpu_l2_hit_pct
  lts__t_sectors_srcunit_tex_op_read.sum_meas      = gpu_l2_to_l1_bytes / 32
  dram__bytes_read.sum_meas                        = gpu_dram_read_bytes
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum_meas
      = DERIVED: the model's sector count x (1 - gpu_l1_hit_pct / 100). The sweep records the hit
        rate, not the sector count; the sector count is fixed by coalescing, which the model
        computes exactly (its request counts equal the kernel's: tests/sim/test_gpu_model.cpp).
`set` is "tuned" for fig5.1a/fig5.1b rows (the model's constants were chosen on them) and
"untuned" for every other file.
"""
import csv, json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

argv = sys.argv[1:]
extra = argv[argv.index('--') + 1:] if '--' in argv else []
argv = argv[:argv.index('--')] if '--' in argv else argv
cbi, out, flt, jobs, files = argv[0], argv[1], argv[2], int(argv[3]), argv[4:]
TUNED = ('m-fig5.1a.csv', 'm-fig5.1b.csv')
rows = []
for f in files:
    for r in csv.DictReader(open(f)):
        if eval(flt, {}, {'r': r}):
            r['source'] = f.split('/')[-1]
            rows.append(r)

def predict(r):
    args = [cbi, 'simulate', '--model', 'gpu', '--device', 'h100', '--workload', r['kernel'],
            '--size', r['size'], '--order', r['order'], '--block', r['block'],
            '--format', 'json'] + extra
    if r['kernel'] == 'stencil':
        args += ['--stencil', r['stencil']]
    if r['type'] != 'float':
        args += ['--elem-bytes', {'half': '2', 'double': '8'}[r['type']]]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(' '.join(args) + ': ' + p.stderr)
    j = json.loads(p.stdout)
    if 'metrics' in j:  # {"metrics": {ncu name: value}, "predicted_ms", ...} since the JSON shape
        m = dict({k: v for k, v in j.items() if not isinstance(v, (dict, list))}, **j['metrics'])
    else:               # older builds: {"rows": [{every column flat}]}
        m = j['rows'][0]
    return m, j['meta']

with ThreadPoolExecutor(jobs) as pool:
    results = list(pool.map(predict, rows))

HIT, MISS, SECT = ('l1tex__t_sector_hit_rate.pct',
                   'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum',
                   'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')
L2READ, L2HIT, DRAM, REQ = ('lts__t_sectors_srcunit_tex_op_read.sum', 'lts__t_sector_hit_rate.pct',
                            'dram__bytes_read.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')
keys = ['source', 'set', 'kernel', 'size', 'stencil', 'type', 'block', 'order']
cols = [REQ + '_pred', SECT + '_pred', HIT + '_pred', HIT + '_meas', MISS + '_pred', MISS + '_meas',
        L2READ + '_pred', L2READ + '_meas', L2HIT + '_pred', L2HIT + '_meas', DRAM + '_pred',
        DRAM + '_meas', 'time_ms_pred', 'time_ms_meas', 'replay_ms', 'l1_bound_ms', 'l2_bound_ms',
        'dram_bound_ms', 'arithmetic_bound_ms', 'bound', 'cycles', 'simulated_sms',
        'model_seconds']
with open(out, 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(keys + cols)
    for r, (m, meta) in zip(rows, results):
        r['set'] = 'tuned' if r['source'] in TUNED else 'untuned'
        hit_meas = float(r['gpu_l1_hit_pct'])
        w.writerow([r[k] for k in keys] + [
            m[REQ], m[SECT], m[HIT], hit_meas, m[MISS], round(m[SECT] * (1 - hit_meas / 100)),
            m[L2READ], round(float(r['gpu_l2_to_l1_bytes']) / 32), m[L2HIT], r['gpu_l2_hit_pct'],
            m[DRAM], r['gpu_dram_read_bytes'], m['predicted_ms'], r['gpu_time_ms'], m['replay_ms'],
            m['l1_bound_ms'], m['l2_bound_ms'], m['dram_bound_ms'], m['arithmetic_bound_ms'],
            m['bound'], meta['cycles'], meta['simulated_sms'], meta['seconds']])
print(f'{len(rows)} rows -> {out}')
