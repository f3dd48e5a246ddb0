import csv, sys, collections, math, glob, os
from helpers import *
T='/work/wt/tails/docs/results/tight/'
full={}
for f in glob.glob(T+'tails/fresh/pred-after-W*.csv')+glob.glob(T+'fix/pred-after-V*.csv'):
    g=os.path.basename(f)[11:-4]
    for r in csv.DictReader(open(f)):
        full[('h200',g,r['order'])]=(float(r['predicted_ms']),r['model_bound'],float(r['dram__bytes_read.sum_pred']))
for r in csv.DictReader(open(T+'heldout-scored.csv')):
    full[(r['device'],r['group'],r['order'])]=(float(r['time_pred']),r['bound'],float(r['dram_pred']))
rows=list(csv.DictReader(open(sys.argv[1])))
GBS={'h200':4241e9,'h100':2985e9}
def others(r):
    p,b,dr=full[(r['device'],r['group'],r['order'])]
    if b!='instruction issue': return p
    sz=r['size'] if 'x' in r['size'] else r['size']+'x'+r['size']; w,h=map(int,sz.split('x')); e={'half':2,'float':4,'double':8}[r['type']]
    dram=1e3*(dr+w*h*e)/GBS[r['device']]
    return max(float(r['replay_ms']),float(r['l1_bound_ms']),float(r['l2_bound_ms']),dram)
def pred(r,variant,rate):
    if variant=='old': return full[(r['device'],r['group'],r['order'])][0]
    return max(others(r), float(r['arithmetic_bound_ms'])*2.75/rate)
groups=collections.defaultdict(list)
for r in rows: groups[(r['device'],r['group'])].append(r)
for variant,rate in (('old',2.75),('new',2.75),('new',2.5),('new',2.3),('new',2.2),('new',2.1),('new',2.0)):
    errs=[];rhos=[];out=[];picks=0
    for g,rs in sorted(groups.items()):
        p=[pred(r,variant,rate) for r in rs]; m=[float(r['time_meas']) for r in rs]
        e=[abs(a/b-1) for a,b in zip(p,m)]; errs+=e
        rho=spearman(p,m); rhos.append(rho)
        best=min(range(len(m)),key=lambda i:m[i]); pick=min(range(len(p)),key=lambda i:p[i])
        over=100*(m[pick]/m[best]-1); picks+=over<=3
        out.append('%s/%s %.0f%% %.2f +%.1f%%'%(g[0][1:],g[1],100*sum(e)/len(e),rho,over))
    print(variant,rate,'MAE %.1f%%'%(100*sum(errs)/len(errs)),'n',len(errs),'rho>=0.8: %d/%d'%(sum(x>=0.8 for x in rhos),len(rhos)),'picks<=3%%: %d'%picks)
    print('   ','; '.join(out))
