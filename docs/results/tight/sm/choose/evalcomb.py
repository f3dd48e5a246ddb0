import sys, math
sys.argv=['x','bounds-stencil.csv']
exec(open('evalst2.py').read().split('for variant,rate in')[0])
st=rows; spred=pred
exec(open('evalmm.py').read().split('groups=collections')[0].replace("import csv, glob, os, collections, sys",""))
mm=rows
for rate in (2.2,2.3,2.4,2.5,2.6,2.75):
    es=[abs(math.log(spred(r,'new',rate)/float(r['time_meas']))) for r in st]
    em=[abs(math.log(new(r,rate)/r['meas'])) for r in mm]
    print(rate,'stencil mean|ln| %.4f (%d)'%(sum(es)/len(es),len(es)),'matmul %.4f (%d)'%(sum(em)/len(em),len(em)),'all %.4f'%((sum(es)+sum(em))/(len(es)+len(em))))
