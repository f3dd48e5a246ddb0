#!/usr/bin/env python3
"""Fits two H100 throughput constants on the tuned configurations of a predict.py CSV:
issue_per_cycle (warp instructions an SM issues per cycle) and l2_to_l1_bytes_per_cycle (per SM),
and rewrites time_ms_pred and bound with the fitted values.

usage: fit_time.py PRED.csv [OUT.csv] [IPC_USED L2_USED]
The instruction-issue and L2->L1 bounds are inversely proportional to their constants and do not
feed back into the replay, so each pair's predicted time is max(replay, L1 wavefronts,
L2 bound x L2_USED / l2, DRAM, issue bound x IPC_USED / ipc), the _USED values being those the
CSV was made with (default 4 and 64). Objective: the mean |ln(predicted / measured)| over the rows
whose set is "tuned". Grid: ipc 1.00..4.00 by 0.05, l2 8..64 bytes by 0.5. Prints the best pair
and the objective along each axis through it; with OUT.csv, writes every row with the fitted
values' times.
"""
import csv, math, sys

rows = list(csv.DictReader(open(sys.argv[1])))
out = sys.argv[2] if len(sys.argv) > 2 else None
ipc_used = float(sys.argv[3]) if len(sys.argv) > 3 else 4.0
l2_used = float(sys.argv[4]) if len(sys.argv) > 4 else 64.0
TERMS = (('replay_ms', 'replay'), ('l1_bound_ms', 'L1 wavefronts'), ('l2_bound_ms', 'L2->L1 bandwidth'),
         ('dram_bound_ms', 'DRAM bandwidth'), ('arithmetic_bound_ms', 'instruction issue'))

def scale(k, ipc, l2):
    return ipc_used / ipc if k == 'arithmetic_bound_ms' else l2_used / l2 if k == 'l2_bound_ms' else 1.0

def predict(r, ipc, l2):
    return max((float(r[k]) * scale(k, ipc, l2), name) for k, name in TERMS)

def loss(ipc, l2, rs):
    return sum(abs(math.log(predict(r, ipc, l2)[0] / float(r['time_ms_meas']))) for r in rs) / len(rs)

tuned = [r for r in rows if r['set'] == 'tuned']
ipcs = [1.0 + 0.05 * i for i in range(61)]
l2s = [8.0 + 0.5 * i for i in range(113)]
best_loss, best, best_l2 = min((loss(i, b, tuned), i, b) for i in ipcs for b in l2s)
for i in ipcs[::6]:
    print(f'issue_per_cycle {i:.2f}, l2 {best_l2:.1f} B/cycle: mean |ln(pred/meas)| {loss(i, best_l2, tuned):.4f}')
for b in l2s[::8]:
    print(f'issue_per_cycle {best:.2f}, l2 {b:.1f} B/cycle: mean |ln(pred/meas)| {loss(best, b, tuned):.4f}')
print(f'fitted issue_per_cycle = {best:.2f}, l2_to_l1_bytes_per_cycle = {best_l2:.1f} (mean |ln ratio| '
      f'{best_loss:.4f}, {100 * (math.exp(best_loss) - 1):.1f}% typical error; {len(tuned)} tuned '
      f'configurations)')
if out:
    # arithmetic_bound_ms is rewritten too, so that the file is what the model prints with the
    # fitted value.
    with open(out, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            t, name = predict(r, best, best_l2)
            r = dict(r, time_ms_pred=t, bound=name,
                     arithmetic_bound_ms=float(r['arithmetic_bound_ms']) * ipc_used / best,
                     l2_bound_ms=float(r['l2_bound_ms']) * l2_used / best_l2)
            w.writerow(r)
