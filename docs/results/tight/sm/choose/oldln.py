import sys, math
sys.argv=['x','bounds-stencil.csv']
exec(open('evalst2.py').read().split('for variant,rate in')[0])
st=rows; spred=pred
exec(open('evalmm.py').read().split('groups=collections')[0].replace("import csv, glob, os, collections, sys",""))
es=[abs(math.log(spred(r,'old',2.75)/float(r['time_meas']))) for r in st]
em=[abs(math.log(r['old']/r['meas'])) for r in rows]
print('old stencil %.4f matmul %.4f all %.4f'%(sum(es)/len(es),sum(em)/len(em),(sum(es)+sum(em))/(len(es)+len(em))))
