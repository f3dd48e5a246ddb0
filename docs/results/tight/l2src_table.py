#!/usr/bin/env python3
"""Where the H100's L1 load misses go (kernels/scripts/tight_l2src.sh): per configuration the L1's
load-sector misses and, as fractions of them, the sectors the crossbar returned to the L1, the L2's
tex-unit read sectors and requests, the sectors over the L2 partitions' fabric (h100/l2src/l2src.csv)
and the L2 request coalescer's counters (`tight_l2src.sh DIR lrc`: h100/lrc/l2src.csv).
usage: l2src_table.py CSV"""
import csv, collections, sys

v = collections.OrderedDict()
for row in csv.reader(open(sys.argv[1])):
    if len(row) > 5 and "__" in row[-3]:
        v.setdefault((row[0], row[1]), {})[row[-3]] = float(row[-1].replace(",", ""))
MISS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"
cols = [("l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum", "sectors returned to L1 (loads)"),
        ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 tex read sectors"),
        ("lts__t_requests_srcunit_tex_op_read.sum", "L2 tex read requests"),
        ("lts__t_sectors_srcunit_ltcfabric.sum", "L2 sectors over the partitions' fabric"),
        ("lrc__request_sectors_op_read_coalescable.sum", "LRC: sectors it may coalesce"),
        ("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", "LRC: coalesced"),
        ("lrc__lrc2xbar_sectors_op_read.sum", "LRC: sectors from L2 into the crossbar"),
        ("lrc__xbar2gpc_sectors_op_read.sum", "crossbar: sectors delivered to the GPCs")]
cols = [c for c in cols if any(c[0] in m for m in v.values())]
print("| group | order | L1 load-sector misses | " + " | ".join(c[1] + " / misses" for c in cols) + " |")
print("|" + " --- |" * (3 + len(cols)))
for (g, o), m in v.items():
    print(f"| {g} | {o} | {m[MISS] / 1e6:.2f} M | " +
          " | ".join(f"{m[c] / m[MISS]:.2f}" if c in m else "–" for c, _ in cols) + " |")
