import sys; sys.argv=['x', sys.argv[1], sys.argv[2]]
src=open('evalst2.py').read().split('for variant,rate in')[0]
exec(src)
rateB=float(sys.argv[2])
def fulldram(r):
    p,b,dr=full[(r['device'],r['group'],r['order'])]
    sz=r['size'] if 'x' in r['size'] else r['size']+'x'+r['size']; w,h=map(int,sz.split('x')); e={'half':2,'float':4,'double':8}[r['type']]
    return 1e3*(dr+w*h*e)/GBS[r['device']]
def pB(r):
    return max(float(r['replay_ms']),float(r['l1_bound_ms']),float(r['l2_bound_ms']),fulldram(r),float(r['arithmetic_bound_ms']))
for name,fn in (('old',lambda r: full[(r['device'],r['group'],r['order'])][0]),('A@2.5',lambda r: pred(r,'new',2.5)),('A@%.1f'%rateB,lambda r: pred(r,'new',rateB)),('B@%.1f'%rateB,pB)):
    errs=[];rhos=[];out=[];picks=0
    for g,rs in sorted(groups.items()):
        p=[fn(r) for r in rs]; m=[float(r['time_meas']) for r in rs]
        e=[abs(a/b-1) for a,b in zip(p,m)]; errs+=e; rho=spearman(p,m); rhos.append(rho)
        best=min(range(len(m)),key=lambda i:m[i]); pick=min(range(len(p)),key=lambda i:p[i]); over=100*(m[pick]/m[best]-1); picks+=over<=3
        out.append('%s %.0f%% %.2f +%.1f'%(g[1],100*sum(e)/len(e),rho,over))
    print(name,'MAE %.1f%%'%(100*sum(errs)/len(errs)),'n',len(errs),'rho>=.8 %d/%d'%(sum(x>=.8 for x in rhos),len(rhos)),'picks',picks)
    print('  ','; '.join(out))
