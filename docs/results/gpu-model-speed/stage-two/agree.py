#!/usr/bin/env python3
"""A sampled stage two of cbi tune against the full device's, on the measured H100 groups (Q1-Q11,
R1-R11, N1-N4; docs/results/gpu-model-speed.md, 2026-11-28 "tune's stage two").
usage: agree.py PRED SAMPLE [SAMPLE...]   per sample: each group's picks, ratios and tie groups
       agree.py --variants PRED           staged searches emulated (stage one 12 SMs, then ...)
       agree.py --csv PREDDIR OUT.csv     the JSON of predict.sh as one CSV
PRED: predict.sh's folder (sS-G.json: cbi tune --search full --sample-sms S over the group's
measured orders) or the CSV made from it (sampled.csv). The full device's predictions and the
measurements are those the tight/ documents scored: lrc-cap/q/pred-after-Q*.csv, lrc-cap/r/pred-lrc-R*.csv,
lrc-cap/n/pred-lrc-N*.csv (checked bit-identical with main's model at Q3, Q10, R3), meas-*.csv."""
import csv, json, math, os, sys
T = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tight")
SETS = [("Q", range(1, 12), "lrc-cap/q/meas-{}.csv", "lrc-cap/q/pred-after-{}.csv"),
        ("R", range(1, 12), "l2-bw/r/meas-{}.csv", "lrc-cap/r/pred-lrc-{}.csv"),
        ("N", range(1, 5), "l2-bw/n/meas-{}.csv", "lrc-cap/n/pred-lrc-{}.csv")]
LN = {"matmul": 0.1046, "stencil": 0.0554}

def csvmap(path, col):
    return {r["order"]: float(r[col]) for r in csv.DictReader(open(path)) if r.get(col)}

_CSV = {}


def sampled(d, s, g):
    """The group's predictions at s SMs: from d/sS-G.json (predict.sh), or from the CSV d."""
    if d.endswith(".csv"):
        if not _CSV:
            for r in csv.DictReader(open(d)):
                _CSV.setdefault((int(r["sample_sms"]), r["group"]), {})[r["order"]] = float(r["predicted_ms"])
        return _CSV.get((int(s), g))
    p = os.path.join(d, f"s{s}-{g}.json")
    if not os.path.exists(p):
        return None
    return {r["order"]: r["predicted_ms"] for r in json.load(open(p))["ranking"]}


def to_csv(d, out):
    """d/sS-G.json -> one CSV: group, sample_sms, order, predicted_ms, bound."""
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "sample_sms", "order", "predicted_ms", "bound"])
        for name in sorted(os.listdir(d)):
            if name.startswith("s") and name.endswith(".json"):
                s, g = name[1:-5].split("-")
                for r in json.load(open(os.path.join(d, name)))["ranking"]:
                    w.writerow([g, s, r["order"], repr(r["predicted_ms"]), r["bound"]])

def pick(pred, orders):
    return min(orders, key=lambda o: pred[o])

def tie(pred, orders, ln):
    b = min(pred[o] for o in orders)
    return sorted(o for o in orders if math.log(pred[o] / b) <= ln + 1e-12)

def staged(one, two, orders, ln, fin=4, grow=True, cap=None, margin=None):
    """tune's staged search: stage one ranks by `one`, its top `fin` replayed as `two`, as many
    again while they all tie (within ln) in `two` (at most `cap`). margin: stage two takes only
    the orders whose stage-one time is within exp(margin x ln) of stage one's fastest."""
    first = sorted(orders, key=lambda o: one[o])
    if margin is not None:
        first = [o for o in first if math.log(one[o] / one[first[0]]) <= margin * ln]
    n = min(fin, len(first))
    while grow and n < len(first) and (cap is None or n < cap):
        ts = [two[o] for o in first[:n]]
        if math.log(max(ts) / min(ts)) > ln:
            break
        n = min(len(first), 2 * n)
    return pick(two, first[:n]), n


def main():
    d, samples = sys.argv[1], sys.argv[2:]
    rows = []
    for letter, idx, mfmt, pfmt in SETS:
        for i in idx:
            g = f"{letter}{i}"
            meas = csvmap(os.path.join(T, mfmt.format(g)), "gpu_time_ms")
            full = csvmap(os.path.join(T, pfmt.format(g)), "predicted_ms")
            kernel = next(csv.DictReader(open(os.path.join(T, pfmt.format(g)))))["kernel"]
            ln = LN[kernel]
            orders = [o for o in full if o in meas]
            best = min(meas[o] for o in orders)
            over = lambda o: 100 * (meas[o] / best - 1)
            fp = pick(full, orders)
            r = dict(group=g, kernel=kernel, n=len(orders), best=min(orders, key=meas.get),
                     full_pick=fp, full_over=over(fp), full_tie=tie(full, orders, ln))
            s12 = sampled(d, 12, g)
            if s12:
                sp, nf = staged(s12, full, orders, ln)
                r["staged_full"] = (sp, over(sp), nf)
            for s in samples:
                ps = sampled(d, s, g)
                if not ps:
                    continue
                ratios = [ps[o] / full[o] for o in orders]
                sp = pick(ps, orders)
                r[f"s{s}"] = dict(pick=sp, over=over(sp), rmin=min(ratios), rmax=max(ratios),
                                  tie=tie(ps, orders, ln),
                                  full_ms_of_pick=100 * (full[sp] / full[fp] - 1))
                if s12:
                    p2, nf2 = staged(s12, ps, orders, ln)
                    r[f"staged{s}"] = (p2, over(p2), nf2)
            rows.append(r)
    for s in samples:
        print(f"\n## stage two at {s} SMs\n")
        print("| group | kernel | n | measured best | full device: pick (over best) | "
              f"{s} SMs: pick (over best) | same pick | predicted {s}/full (min–max) | "
              "full-device time of the sampled pick over full pick | tie group same | "
              "staged@full (finalists) | staged@" + s + " (finalists) |")
        print("|" + " --- |" * 12)
        for r in rows:
            x = r.get(f"s{s}")
            if not x:
                continue
            sf = r.get("staged_full"); st = r.get(f"staged{s}")
            fmt = lambda t: f"{t[0]} ({t[1]:+.1f}%, {t[2]})" if t else "–"
            print(f"| {r['group']} | {r['kernel']} | {r['n']} | {r['best']} | {r['full_pick']} "
                  f"({r['full_over']:+.1f}%) | {x['pick']} ({x['over']:+.1f}%) | "
                  f"{'yes' if x['pick'] == r['full_pick'] else 'no'} | {x['rmin']:.3f}–{x['rmax']:.3f} | "
                  f"{x['full_ms_of_pick']:+.2f}% | {'yes' if x['tie'] == r['full_tie'] else 'no (' + str(len(x['tie'])) + ' vs ' + str(len(r['full_tie'])) + ')'} | "
                  f"{fmt(sf)} | {fmt(st)} |")
        done = [r for r in rows if r.get(f"s{s}")]
        same = sum(r[f"s{s}"]["pick"] == r["full_pick"] for r in done)
        w3f = sum(r["full_over"] <= 3 for r in done)
        w3s = sum(r[f"s{s}"]["over"] <= 3 for r in done)
        print(f"\n{len(done)} groups: same pick {same}; pick within 3% of measured best: "
              f"full {w3f}, {s} SMs {w3s}; mean over best full {sum(r['full_over'] for r in done)/max(1,len(done)):.2f}%, "
              f"{s} SMs {sum(r[f's{s}']['over'] for r in done)/max(1,len(done)):.2f}%")
        sd = [r for r in done if r.get("staged_full") and r.get(f"staged{s}")]
        if sd:
            w1 = sum((100 + r[f'staged{s}'][1]) <= 1.01 * (100 + r['staged_full'][1]) + 1e-9 for r in sd)
            worse = [f"{r['group']} {(100 + r[f'staged{s}'][1]) / (100 + r['staged_full'][1]) * 100 - 100:+.1f}%"
                     for r in sd if r['staged_full'][0] != r[f'staged{s}'][0]]
            print(f"staged (stage one 12 SMs, 4 finalists + growth): stage two full vs {s}: same pick "
                  f"{sum(r['staged_full'][0] == r[f'staged{s}'][0] for r in sd)}/{len(sd)}; measured within 1% of "
                  f"the full stage two's pick: {w1}/{len(sd)}; within 3% of best: "
                  f"{sum(r['staged_full'][1] <= 3 for r in sd)} vs {sum(r[f'staged{s}'][1] <= 3 for r in sd)}; "
                  f"differing (measured, sampled pick over full pick): {', '.join(worse)}")
    if os.path.isdir(d):
        json.dump(rows, open(os.path.join(d, "agree.json"), "w"), indent=1)

if sys.argv[1] not in ("--variants", "--csv", "--doc"):
    main()

def variants(d):
    """Every staged variant against the full search (least full-device prediction) per group."""
    rows = []
    for letter, idx, mfmt, pfmt in SETS:
        for i in idx:
            g = f"{letter}{i}"
            meas = csvmap(os.path.join(T, mfmt.format(g)), "gpu_time_ms")
            full = csvmap(os.path.join(T, pfmt.format(g)), "predicted_ms")
            kernel = next(csv.DictReader(open(os.path.join(T, pfmt.format(g)))))["kernel"]
            src = {"full": full}
            for s in (12, 33, 44, 66):
                p = sampled(d, s, g)
                if p:
                    src[str(s)] = p
            rows.append((g, kernel, meas, src))
    V = [("12 only", "12", None, 0, 0, None), ("33 only", "33", None, 0, 0, None),
         ("66 only", "66", None, 0, 0, None)]
    for two in ("full", "66", "44", "33"):
        for fin, cap in ((4, None), (4, 8), (4, 4), (3, 3), (2, 2), (2, 4)):
            V.append((f"12 -> {two}, {fin} finalists, " + ("growth" if cap is None else f"at most {cap}"),
                      "12", two, fin, cap, None))
    for m in (0.5, 1, 1.5, 2, 3, 5):
        V.append((f"12 -> full, 4 finalists, growth, stage two only within {m} x the tie tolerance "
                  "of stage one's fastest", "12", "full", 4, None, m))
    print("\n## variants against the full search (pick: least full-device prediction)\n")
    print("| variant | groups | same pick as full search | measured within 1% of full pick's | "
          "within 3% of measured best | worst over best | mean finalists | cost (SM replays / full search) | differing groups |")
    print("|" + " --- |" * 9)
    for name, one, two, fin, cap, margin in V:
        n = same = w1 = w3 = 0; worst = 0; fins = []; cost = 0; fullcost = 0; diff = []
        for g, kernel, meas, src in rows:
            if one not in src or (two and two not in src):
                continue
            orders = [o for o in src["full"] if o in meas]
            best = min(meas[o] for o in orders)
            fp = pick(src["full"], orders)
            if two is None:
                p, nf = pick(src[one], orders), 0
            else:
                p, nf = staged(src[one], src[two], orders, LN[kernel], fin, True, cap, margin)
            n += 1; same += p == fp
            w1 += meas[p] <= 1.01 * meas[fp]
            w3 += meas[p] <= 1.03 * best
            worst = max(worst, 100 * (meas[p] / best - 1)); fins.append(nf)
            stwo = 132 if two == "full" else int(two or 0)
            cost += len(orders) * int(one) + nf * stwo; fullcost += len(orders) * 132
            if p != fp:
                diff.append(f"{g} {p} ({100 * (meas[p] / meas[fp] - 1):+.1f}% vs {fp})")
        if n:
            print(f"| {name} | {n} | {same} | {w1} | {w3} | {worst:+.1f}% | {sum(fins) / n:.1f} | "
                  f"{cost / fullcost:.3f} | {'; '.join(diff)} |")

if len(sys.argv) > 1 and sys.argv[1] == "--variants":
    variants(sys.argv[2])
if len(sys.argv) > 1 and sys.argv[1] == "--csv":
    to_csv(sys.argv[2], sys.argv[3])


def doc_table(d, samples):
    """gpu-model-speed.md's table: per group the full search's pick and the staged search's with
    stage two on the full device and on each sample (pick, measured over the best, finalists)."""
    print("| group | kernel | measured best | full search: pick (over best) | staged, stage two full: "
          "pick (over best; finalists) | " +
          " | ".join(f"staged, stage two {s} SMs" for s in samples) +
          " | " + " | ".join(f"{s} SMs / full, predicted" for s in samples) + " |")
    print("|" + " --- |" * (5 + 2 * len(samples)))
    for letter, idx, mfmt, pfmt in SETS:
        for i in idx:
            g = f"{letter}{i}"
            meas = csvmap(os.path.join(T, mfmt.format(g)), "gpu_time_ms")
            full = csvmap(os.path.join(T, pfmt.format(g)), "predicted_ms")
            kernel = next(csv.DictReader(open(os.path.join(T, pfmt.format(g)))))["kernel"]
            orders = [o for o in full if o in meas]
            best = min(meas[o] for o in orders)
            over = lambda o: f"{100 * (meas[o] / best - 1):+.1f}%"
            s12 = sampled(d, 12, g)
            fp = pick(full, orders)
            ref, nref = staged(s12, full, orders, LN[kernel])
            cells = [g, kernel, min(orders, key=meas.get), f"{fp} ({over(fp)})", f"{ref} ({over(ref)}; {nref})"]
            ratios = []
            for s in samples:
                ps = sampled(d, s, g)
                if not ps:
                    cells.append("–"); ratios.append("–")
                    continue
                p, n = staged(s12, ps, orders, LN[kernel])
                mark = "" if p == ref else (" **≠**" if meas[p] > 1.01 * meas[ref] else " ≠")
                cells.append(f"{p} ({over(p)}; {n}){mark}")
                r = [ps[o] / full[o] for o in orders]
                ratios.append(f"{min(r):.2f}–{max(r):.2f}")
            print("| " + " | ".join(cells + ratios) + " |")


if len(sys.argv) > 1 and sys.argv[1] == "--doc":
    doc_table(sys.argv[2], sys.argv[3:])
