#!/usr/bin/env python3
"""Fits the H100 row's issue_per_cycle (warp instructions an SM issues per cycle) on the tuned
configurations of a predict.py CSV, and rewrites time_ms_pred and bound with the fitted value.

usage: fit_time.py PRED.csv [OUT.csv] [IPC_USED]
The model's instruction-issue bound is inversely proportional to issue_per_cycle and does not
feed back into the replay, so each value's predicted time is max(replay, L1, L2, DRAM,
issue bound x IPC_USED / ipc), IPC_USED being the value the CSV was made with (default 4).
Objective: the mean |ln(predicted / measured)| over the rows whose set is "tuned". Prints the
objective over the grid 1.00..4.00 and the minimum; with OUT.csv, writes the rows (every set)
with the fitted value's times.
"""
import csv, math, sys

rows = list(csv.DictReader(open(sys.argv[1])))
out = sys.argv[2] if len(sys.argv) > 2 else None
ipc_used = float(sys.argv[3]) if len(sys.argv) > 3 else 4.0
TERMS = (('replay_ms', 'replay'), ('l1_bound_ms', 'L1 wavefronts'), ('l2_bound_ms', 'L2->L1 bandwidth'),
         ('dram_bound_ms', 'DRAM bandwidth'), ('arithmetic_bound_ms', 'instruction issue'))

def predict(r, ipc):
    vals = [(float(r[k]) * (ipc_used / ipc if k == 'arithmetic_bound_ms' else 1.0), name)
            for k, name in TERMS]
    return max(vals)

def loss(ipc, rs):
    return sum(abs(math.log(predict(r, ipc)[0] / float(r['time_ms_meas']))) for r in rs) / len(rs)

tuned = [r for r in rows if r['set'] == 'tuned']
grid = [1.0 + 0.05 * i for i in range(61)]
losses = [(loss(g, tuned), g) for g in grid]
for l, g in losses[::4]:
    print(f'issue_per_cycle {g:.2f}: mean |ln(pred/meas)| {l:.4f}')
best_loss, best = min(losses)
print(f'fitted issue_per_cycle = {best:.2f} (mean |ln ratio| {best_loss:.4f}, '
      f'{100 * (math.exp(best_loss) - 1):.1f}% typical error; {len(tuned)} tuned configurations)')
if out:
    # arithmetic_bound_ms is rewritten too, so that the file is what the model prints with the
    # fitted value.
    with open(out, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            t, name = predict(r, best)
            r = dict(r, time_ms_pred=t, bound=name,
                     arithmetic_bound_ms=float(r['arithmetic_bound_ms']) * ipc_used / best)
            w.writerow(r)
