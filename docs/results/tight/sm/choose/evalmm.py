import csv, glob, os, collections, sys
sys.path.insert(0,'/tmp/sm'); from helpers import spearman, levels
T='/work/wt/tails/docs/results/tight/'
def fast(o):
    k=o.split(':')[0]
    return {'linear':0,'column':16.5,'zigzag':19,'tile':34}.get(k, 34+35*levels(int(o.split(':')[1])) if k=='hilbert' else 0)
rows=[]
for f in glob.glob(T+'tails/fresh/meas-W*.csv')+glob.glob(T+'fix/meas-V*.csv'):
    g=os.path.basename(f)[5:-4]; d=os.path.dirname(f)
    pred={r['order']:r for r in csv.DictReader(open(d+'/pred-after-'+g+'.csv'))}
    for r in csv.DictReader(open(f)):
        if r['kernel']!='matmul': continue
        p=pred[r['order']]
        rows.append(dict(dev='h200',g=g,order=r['order'],size=r['size'],depth=int(r['depth']),type=r['type'],meas=float(r['gpu_time_ms']),old=float(p['predicted_ms']),bound=p['model_bound']))
for r in csv.DictReader(open(T+'heldout-scored.csv')):
    if r['kernel']!='matmul': continue
    sz=r['size'] if 'x' in r['size'] else r['size']+'x'+r['size']
    rows.append(dict(dev=r['device'],g=r['group'],order=r['order'],size=sz,depth=int(r['depth']),type=r['type'],meas=float(r['time_meas']),old=float(r['time_pred']),bound=r['bound']))
def new(r,rate):
    sz=r['size'] if 'x' in r['size'] else r['size']+'x'+r['size']; w,h=map(int,sz.split('x')); D=r['depth']
    n=(8*D+44 if r['type']=='half' else 4.5625*D+53)+fast(r['order'])
    a=1e3*w*h/32*n/(132*rate*1.98e9)
    assert r['bound']!='instruction issue'
    return max(r['old'],a)
groups=collections.defaultdict(list)
for r in rows: groups[(r['dev'],r['g'])].append(r)
for rate in (None,2.75,2.5,2.3,2.2,2.1):
    errs=[];rh=[];picks=0;out=[]
    for g,rs in sorted(groups.items()):
        p=[r['old'] if rate is None else new(r,rate) for r in rs]; m=[r['meas'] for r in rs]
        e=[abs(a/b-1) for a,b in zip(p,m)]; errs+=e; rho=spearman(p,m); rh.append(rho)
        best=min(range(len(m)),key=lambda i:m[i]); pick=min(range(len(p)),key=lambda i:p[i]); over=100*(m[pick]/m[best]-1); picks+=over<=3
        out.append('%s%s %.0f%% %.2f +%.1f'%(g[0][-1],g[1],100*sum(e)/len(e),rho,over))
    print(rate,'MAE %.1f%%'%(100*sum(errs)/len(errs)),'n',len(errs),'rho>=.8 %d/%d'%(sum(x>=.8 for x in rh),len(rh)),'picks %d'%picks)
    print('  ','; '.join(out))
