import csv,sys,collections
def load(path):
    rows=list(csv.reader(l for l in open(path) if l.startswith('"')))
    h=rows[0]; ii=h.index("ID"); mi=h.index("Metric Name"); vi=h.index("Metric Value"); ki=h.index("Kernel Name")
    d=collections.OrderedDict()
    for r in rows[1:]:
        d.setdefault(int(r[ii]),{'kernel':r[ki]})[r[mi]]=float(r[vi].replace(',',''))
    return d
if __name__=='__main__':
    d=load(sys.argv[1])
    short={'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum':'req','l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum':'sect','l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum':'hit','l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum':'miss','l1tex__t_sector_hit_rate.pct':'l1%','lts__t_sectors_srcunit_tex_op_read.sum':'l2sect','lts__t_requests_srcunit_tex_op_read.sum':'l2req','lts__t_sector_hit_rate.pct':'l2%','dram__bytes_read.sum':'dram','l1tex__data_pipe_lsu_wavefronts_mem_lg.sum':'wavefronts'}
    keys=[k for k in short if any(k in v for v in d.values())]
    print('id '+' '.join(short[k] for k in keys))
    for i,v in d.items():
        print(i,' '.join('%.6g'%v.get(k,float('nan')) for k in keys))
