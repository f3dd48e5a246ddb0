#!/usr/bin/env python3
"""From kernels/probes/sgemm_steps CSVs: the issue shares of a CTA alone and of two sharing an SM
(y-set.md §7). PAIR: one wave of two CTAs an SM (e.g. 1408x3072x32768); SOLO: one CTA an SM
(1408x1536x32768). Marks ns0..ns7 are steps 0, S/8, ..., 7S/8 and ns9 the end of the arithmetic.
While both CTAs of an SM live: the younger's progress over the older's (younger_cta_issue_ratio),
and the pair's summed progress a µs; a CTA alone's progress a µs over that
(solo_cta_issue_fraction).

usage: pair_rates.py PAIR.csv SOLO.csv
"""
import bisect, collections, csv, statistics, sys

MARKS = [f"ns{k}" for k in range(8)] + ["ns9"]
FRACS = [k / 8 for k in range(8)] + [1.0]


def ctas(path):
    out = []
    for r in csv.DictReader(open(path)):
        t = [int(r[m]) for m in MARKS]
        out.append((int(r["cta"]), int(r["smid"]), t))
    return out


def progress(t, at):  # fraction of the CTA's steps done at time `at` (linear between marks)
    if at <= t[0]:
        return 0.0
    if at >= t[-1]:
        return 1.0
    i = bisect.bisect_right(t, at) - 1
    return FRACS[i] + (FRACS[i + 1] - FRACS[i]) * (at - t[i]) / (t[i + 1] - t[i])


def main():
    pair, solo = ctas(sys.argv[1]), ctas(sys.argv[2])
    by_sm = collections.defaultdict(list)
    for c in pair:
        by_sm[c[1]].append(c)
    ratios, rates, older_first = [], [], 0
    for sm, cs in by_sm.items():
        if len(cs) != 2:
            continue
        (ca, _, ta), (cb, _, tb) = sorted(cs)
        a, b = max(ta[0], tb[0]), min(ta[-1], tb[-1])
        older = progress(ta, b) - progress(ta, a)
        younger = progress(tb, b) - progress(tb, a)
        ratios.append(younger / older)
        rates.append((older + younger) / ((b - a) / 1e3))
        older_first += ta[-1] <= tb[-1]
    solo_rate = statistics.median(1.0 / ((t[-1] - t[0]) / 1e3) for _, _, t in solo)
    print(f"SMs with a pair: {len(ratios)}; the older ends first on {older_first}")
    print(f"younger / older progress while both live: median {statistics.median(ratios):.4f}")
    print(f"pair: {statistics.median(rates) * 1e3:.4f} CTAs a ms; alone: {solo_rate * 1e3:.4f} CTAs a ms"
          f" (median CTA {1 / solo_rate / 1e3:.3f} ms)")
    print(f"solo / pair: {solo_rate / statistics.median(rates):.4f}")


if __name__ == "__main__":
    main()
