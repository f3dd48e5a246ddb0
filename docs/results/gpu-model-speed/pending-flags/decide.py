import json,glob,sys,math
# old rule: accesses*orders <= 2^32 ; new: orders*warps*(5e-6+loads*130e-9)/threads <= 20
for f in sorted(glob.glob('*/tune-*.json')+glob.glob('*/*/tune-*.json')):
    try: d=json.load(open(f))
    except Exception as e: continue
    c=d['config']; m=d.get('meta',{})
    kind=c.get('workload'); w=c['width']; h=c['height']
    if kind=='matmul': lpt=2*c['depth']
    elif kind=='stencil': lpt=c['stencil_w']*c['stencil_h']
    else: continue
    tasks=w*h; acc=tasks*(lpt+(1 if c.get('writes',True) else 0))
    orders=len(d['ranking'])
    old_full = acc*orders <= 2**32
    jobs=m.get('jobs',16)
    est=orders*(tasks/32)*(5e-6+lpt*130e-9)
    new_full = est/jobs <= 20
    print(f"{f:40s} {kind:8s} {w}x{h} l{lpt:5d} o{orders:2d} ran={c.get('search'):7s} jobs={jobs} old={'full' if old_full else 'staged'} new={'full' if new_full else 'staged'} est1={est:7.1f}s est/jobs={est/jobs:6.1f} wall={d.get('context',{}).get('seconds','?')}")
