import csv,sys,statistics,collections
for f in sys.argv[1:]:
    rows=list(csv.DictReader(open(f)))
    ctas=collections.defaultdict(list)
    for r in rows: ctas[int(r['cta'])].append(r)
    intra=[];dur=[]
    for c,ws in ctas.items():
        s=min(int(w['ns0']) for w in ws); e=max(int(w['ns8']) for w in ws)
        d=e-s; dur.append(d)
        # at each checkpoint k: spread of warps' arrival, as a fraction of the CTA's duration
        sp=[(max(int(w['ns%d'%k]) for w in ws)-min(int(w['ns%d'%k]) for w in ws))/d for k in range(1,8)]
        intra.append(statistics.mean(sp))
    # co-resident CTAs on one SM: pairs that overlap in time; progress lag = |ns4(a)-ns4(b)| / duration
    bysm=collections.defaultdict(list)
    for c,ws in ctas.items():
        s=min(int(w['ns0']) for w in ws); e=max(int(w['ns8']) for w in ws); m=statistics.median(int(w['ns4']) for w in ws)
        bysm[int(ws[0]['smid'])].append((s,e,m,c))
    lag=[];co=[]
    for sm,l in bysm.items():
        l.sort()
        for i,(s,e,m,c) in enumerate(l):
            n=sum(1 for (s2,e2,m2,c2) in l if s2<e and e2>s)  # overlapping incl. itself
            co.append(n)
            for (s2,e2,m2,c2) in l[i+1:]:
                if s2<e and e2>s: lag.append(abs(m2-m)/(e-s))
    print(f.split('/')[-1], 'ctas',len(ctas),'median CTA us %.1f'%(statistics.median(dur)/1e3),
          'intra-CTA warp spread (mean over checkpoints) median %.3f p90 %.3f'%(statistics.median(intra), sorted(intra)[int(.9*len(intra))]),
          'co-resident CTAs median %d'%statistics.median(co),
          'co-resident mid-point lag median %.3f p90 %.3f'%(statistics.median(lag) if lag else 0, sorted(lag)[int(.9*len(lag))] if lag else 0))
