import csv,glob,os,sys
sys.path.insert(0,'/work/wt-coord/docs/results/tight')
from heldout_score import key
for d in ['t','q']:
    tot={'before':[], 'after':[]}
    for mp in sorted(glob.glob(f'/tmp/ev/{d}/meas-*.csv')):
        g=os.path.basename(mp)[5:-4]
        meas={key(r):r for r in csv.DictReader(open(mp))}
        preds={}
        for v in ('before','after'):
            p=f'/tmp/ev/{d}/pred-{v}-{g}.csv'
            if os.path.exists(p): preds[v]={key(r):r for r in csv.DictReader(open(p))}
        if len(preds)<2: continue
        for k,pb in preds['before'].items():
            if k not in meas or k not in preds['after']: continue
            m=float(meas[k]['gpu_time_ms']); b=float(pb['predicted_ms']); a=float(preds['after'][k]['predicted_ms'])
            tot['before'].append(abs(b/m-1)); tot['after'].append(abs(a/m-1))
            print(f"{g:4} {pb['order']:10} meas {m:.4f} before {b:.4f} ({100*(b/m-1):+5.1f}%) after {a:.4f} ({100*(a/m-1):+5.1f}%) {preds['after'][k]['model_bound'][:10]}")
    for v in tot:
        if tot[v]: print(d, v, 'n', len(tot[v]), 'time MAE %.1f%%' % (100*sum(tot[v])/len(tot[v])))
