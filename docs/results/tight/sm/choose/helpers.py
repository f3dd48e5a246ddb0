import math
def levels(s):
    l=0;n=1
    while n<s: n*=2;l+=1
    return l
def old_remap(o):
    k=o.split(':')[0]
    return {'linear':40,'column':100,'zigzag':100,'tile':120}.get(k, 120+6*levels(int(o.split(':')[1])) if k=='hilbert' else 0)
def rank(v):
    s=sorted(range(len(v)),key=lambda i:v[i]); r=[0]*len(v)
    i=0
    while i<len(s):
        j=i
        while j+1<len(s) and v[s[j+1]]==v[s[i]]: j+=1
        for k in range(i,j+1): r[s[k]]=(i+j)/2
        i=j+1
    return r
def spearman(a,b):
    ra,rb=rank(a),rank(b); n=len(a); ma=sum(ra)/n; mb=sum(rb)/n
    num=sum((x-ma)*(y-mb) for x,y in zip(ra,rb)); den=math.sqrt(sum((x-ma)**2 for x in ra)*sum((y-mb)**2 for y in rb))
    return num/den if den else float('nan')
