#!/usr/bin/env python3
"""The two candidate rules of miss-cost.md §3 counted by the model (explore-counters.patch on main
8edd2e3: x_split_requests counts V1, requests whose sectors are of more than one of ready / on
their way / own misses; x_split_lines counts V2, V1 or pending sectors of two fill times), sampled
on 12 SMs (runpred.sh), against the data stage's wavefronts beyond the banks' that ncu measured
(../ncu/ncu.csv, H200). Thousands an SM.
usage: v1v2.py > v1v2.txt"""
import csv, json, os
here = os.path.dirname(os.path.abspath(__file__))
d = {}
for r in csv.reader(open(os.path.join(here, "..", "ncu", "ncu.csv"))):
    if r[1] != "ID":
        d.setdefault(r[0], {})[r[13]] = float(r[15].replace(",", ""))
S = 132
print("label            dwf_meas  wf_model  extra |     V1     V2 | extra/V1 extra/V2")
for k in d:
    m = json.load(open(os.path.join(here, "pred-v1v2", k + ".json")))["metrics"]
    dwf = d[k]["l1tex__data_pipe_lsu_wavefronts.sum"] / S / 1e3
    wf = m["x_l1_wavefronts"] / S / 1e3
    v1, v2 = m["x_split_requests"] / S / 1e3, m["x_split_lines"] / S / 1e3
    ex = dwf - wf
    print(f"{k:16s} {dwf:8.1f} {wf:8.1f} {ex:6.1f} | {v1:6.1f} {v2:6.1f} | "
          f"{ex / v1 if v1 else 0:8.2f} {ex / v2 if v2 else 0:8.2f}")
