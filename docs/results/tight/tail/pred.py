#!/usr/bin/env python3
"""pred.py MEASDIR GROUPS OUTDIR TAG [ORDERS]: sampled (12 SMs) predictions of the measured rows of
MEASDIR/meas-G.csv for each G in GROUPS (comma list), as OUTDIR/pred-TAG-G.csv (the columns that
fix_score.py reads), with meas-G.csv linked beside. Env passes to cbi (CBI_EXP_*). ORDERS: comma
list to keep (default all). SMS env: sample size (0: full device); CBI env: the cbi binary (default: cbi on PATH);
CBI_EXP_SCHED / CBI_EXP_RATE / CBI_EXP_ROUND / CBI_EXP_CEIL: the candidates of tail-float.md §3 (an
experimental binary, not main)."""
import csv, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
md, groups, od, tag = sys.argv[1:5]
keep = set(sys.argv[5].split(',')) if len(sys.argv) > 5 and sys.argv[5] else None
sms = os.environ.get('SMS', '12'); dev = os.environ.get('DEV', 'h200')
os.makedirs(od, exist_ok=True)
names = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
         "l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum", "dram__bytes_read.sum"]
def run(r):
    eb = {'half': '2', 'float': '4', 'double': '8'}[r['type']]
    a = [os.environ.get('CBI', 'cbi'), 'simulate', '--model', 'gpu', '--device', dev, '--workload', r['kernel'],
         '--size', r['size'], '--block', r['block'], '--order', r['order'], '--elem-bytes', eb, '--jobs', '1', '--format', 'json']
    if sms != '0': a += ['--sample-sms', sms]
    if r['stencil']: a += ['--stencil', r['stencil']]
    if r['depth']: a += ['--depth', r['depth']]
    j = json.loads(subprocess.run(a, capture_output=True, text=True, check=True).stdout)
    o = {k: r[k] for k in ("kernel", "size", "stencil", "depth", "type", "block", "order")}
    for n in names: o[n + '_pred'] = j['metrics'][n]
    o['predicted_ms'] = j['predicted_ms']; o['model_bound'] = j['bound']; o['replay_ms'] = j['replay_ms']
    return o
for g in groups.split(','):
    mp = os.path.join(md, f'meas-{g}.csv')
    rows = [r for r in csv.DictReader(open(mp)) if keep is None or r['order'] in keep]
    with ThreadPoolExecutor(int(os.environ.get('J', '1'))) as ex:
        outs = list(ex.map(run, rows))
    with open(os.path.join(od, f'pred-{tag}-{g}.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(outs[0].keys())); w.writeheader(); w.writerows(outs)
    link = os.path.join(od, f'meas-{g}.csv')
    if not os.path.exists(link): os.symlink(os.path.abspath(mp), link)
    print(g, len(outs), file=sys.stderr)
