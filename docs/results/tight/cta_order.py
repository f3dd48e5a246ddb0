import csv,sys,collections
for f in sys.argv[1:]:
    rows=[{k:int(v) for k,v in r.items()} for r in csv.DictReader(open(f))]
    rows.sort(key=lambda r:r['cta'])
    n=len(rows)
    # first wave: CTAs that start before the first CTA ends
    first_end=min(r['end_ns'] for r in rows)
    wave=[r for r in rows if r['start_ns']<first_end]
    per_sm=collections.Counter(r['smid'] for r in wave)
    # the model deals CTA k of the first wave to SM (k mod 132) in rounds; hardware: smid sequence
    seq=[r['smid'] for r in wave[:12]]
    # how the hardware numbers SMs: pairs? check cta k and k+1
    same_sm_next=sum(1 for a,b in zip(wave,wave[1:]) if a['smid']==b['smid'])
    # refill order: CTAs after the first wave, is start order == index order?
    rest=[r for r in rows if r['start_ns']>=first_end]
    inv=sum(1 for a,b in zip(rest,rest[1:]) if b['start_ns']<a['start_ns'])
    print(f, 'ctas',n,'first wave',len(wave),'per SM',sorted(set(per_sm.values())),'SMs used',len(per_sm),
          'first smids',seq,'consecutive on same SM',same_sm_next,'refills out of index order',inv,'of',len(rest))
