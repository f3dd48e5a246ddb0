"""Sampled (12 SMs) bounds of every stencil configuration of the choosing sets."""
import csv, glob, json, subprocess, sys, os
cbi = sys.argv[1]; out = sys.argv[2]
T = '/work/wt/tails/docs/results/tight/'
cfgs = []
def add(dev, group, kernel, size, stencil, depth, typ, block, order, meas):
    cfgs.append(dict(device=dev, group=group, kernel=kernel, size=size, stencil=stencil, depth=depth,
                     type=typ, block=block, order=order, time_meas=meas))
for pat, dev in (('tails/fresh/meas-W*.csv', 'h200'), ('fix/meas-V*.csv', 'h200')):
    for f in sorted(glob.glob(T + pat)):
        g = os.path.basename(f)[5:-4]
        for r in csv.DictReader(open(f)):
            if r['kernel'] != sys.argv[3]: continue
            add(dev, g, r['kernel'], r['size'], r['stencil'], r['depth'], r['type'], r['block'], r['order'], r['gpu_time_ms'])
for r in (csv.DictReader(open(T + 'heldout-scored.csv')) if os.environ.get('HELDOUT') else []):
    if r['kernel'] != sys.argv[3]: continue
    size = r['size'] if 'x' in r['size'] else r['size'] + 'x' + r['size']
    add(r['device'], r['group'], r['kernel'], size, r['stencil'], r['depth'], r['type'], r['block'], r['order'], r['time_meas'])
done = set()
if os.path.exists(out):
    for r in csv.DictReader(open(out)):
        done.add((r['device'], r['group'], r['order']))
w = open(out, 'a', newline='')
keys = list(cfgs[0].keys()) + ['replay_ms', 'l1_bound_ms', 'l2_bound_ms', 'dram_bound_ms', 'arithmetic_bound_ms', 'predicted_ms', 'bound']
wr = csv.DictWriter(w, fieldnames=keys)
if not done: wr.writeheader()
for c in cfgs:
    if (c['device'], c['group'], c['order']) in done: continue
    a = [cbi, 'simulate', '--model', 'gpu', '--device', c['device'], '--workload', c['kernel'], '--size', c['size'],
         '--block', c['block'], '--order', c['order'], '--sample-sms', '12', '--format', 'json']
    t = {'half': '2', 'float': '4', 'double': '8'}[c['type']]
    a += ['--elem-bytes', t]
    if c['stencil']: a += ['--stencil', c['stencil']]
    if c['depth']: a += ['--depth', c['depth']]
    j = json.loads(subprocess.run(a, capture_output=True, text=True, check=True).stdout)
    row = dict(c)
    for k in keys[len(c):]: row[k] = j[k]
    wr.writerow(row); w.flush()
