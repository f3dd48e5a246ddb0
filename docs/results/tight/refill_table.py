#!/usr/bin/env python3
"""Tables of docs/results/tight/tail-float.md §1 from the CTA steps probe (kernels/probes/cta_steps.cu).

usage: python3 refill_table.py DIR...   (DIR: tails/steps.tar.gz or sm/steps.tar.gz unpacked: steps-*.csv)

Per launch: (a) the launcher's refill round: on each SM, the spread of the start times of the CTAs
that take its slots after the first wave (its first `slots` CTAs that start after the first CTA of
the launch ends), over the slots less one; the median over the SMs. (b) After the first wave, the
pace of the oldest and the youngest CTA an SM runs at once: for each later CTA the microseconds per
eighth of the k loop over the eighths during which an older CTA of its SM was still running (the
younger's pace) or a younger one was running (the older's), median over the CTAs.
"""
import collections, glob, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from steps_table import ctas_of  # per CTA: its SM and the median stamps of its warps


def main():
    print('| launch | slots an SM | refill round: median over SMs (us) | pace after the first wave, us per eighth: oldest running / youngest running | ratio |')
    print('| --- | --- | --- | --- | --- |')
    for d in sys.argv[1:]:
        for path in sorted(glob.glob(os.path.join(d, 'steps-*.csv'))):
            ctas = ctas_of(path)
            first_end = min(m[8] for _, m in ctas.values())
            by_sm = collections.defaultdict(list)
            for c, (sm, m) in ctas.items():
                by_sm[sm].append(m)
            slots = round(statistics.median(sum(1 for m in l if m[0] < first_end) for l in by_sm.values()))
            rounds, older, younger = [], [], []
            for l in by_sm.values():
                l.sort(key=lambda m: m[0])
                w2 = [m for m in l if m[0] >= first_end][:slots]
                if slots > 1 and len(w2) == slots:
                    rounds.append((w2[-1][0] - w2[0][0]) / (slots - 1))
                for m in l:
                    if m[0] < first_end:
                        continue
                    for k in range(8):
                        a, b = m[k], m[k + 1]
                        others = [o for o in l if o is not m and o[0] < b and o[8] > a]
                        if not others:
                            continue
                        if all(o[0] > m[0] for o in others):
                            older.append(b - a)
                        elif all(o[0] < m[0] for o in others):
                            younger.append(b - a)
            name = os.path.basename(path)[len('steps-'):-4]
            o, y = statistics.median(older) / 1e3, statistics.median(younger) / 1e3
            print(f'| {name} | {slots} | {statistics.median(rounds) / 1e3:.2f} | {o:.2f} / {y:.2f} | {y / o:.2f} |')


main()
