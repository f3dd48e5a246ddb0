#!/usr/bin/env python3
"""Scores `cbi tune` runs (its JSON, one a group) against the measured group (cbi sweep --backend
gpu CSV): the pick's measured time over the group's measured best, whether the measured best lies
in the tune's tie group, and the measured spread of that group.

usage: tune_score.py DIR GROUP...   (DIR holds tune-G.json and meas-G.csv for each group G)
Prints a Markdown table. Orders that tune ranked but that were not measured are counted, not
scored; a pick that was not measured is reported as "not measured".
"""
import csv
import json
import sys


def main():
    d, groups = sys.argv[1], sys.argv[2:]
    if not groups:
        sys.exit("usage: tune_score.py DIR GROUP...")
    print("| group | tune's pick | pick over the measured best | measured best | best in the tie group | "
          "tie group (measured of ranked) | measured spread of the tie group | search | wall s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    within = scored = 0
    for g in groups:
        t = json.load(open(f"{d}/tune-{g}.json"))
        meas = {r["order"]: float(r["gpu_time_ms"]) for r in csv.DictReader(open(f"{d}/meas-{g}.csv"))}
        best = min(meas, key=meas.get)
        pick = t["meta"]["winner"]
        ties = t["meta"].get("indistinguishable_by_the_model") or [pick]
        measured_ties = [o for o in ties if o in meas]
        spread = (max(meas[o] for o in measured_ties) / min(meas[o] for o in measured_ties) - 1
                  if measured_ties else float("nan"))
        wall = "?"
        try:
            for line in open(f"{d}/tune-{g}.log"):
                if " s wall " in line:
                    wall = line.split()[0]
        except OSError:
            pass
        if pick in meas:
            over = meas[pick] / meas[best] - 1
            scored += 1
            within += over <= 0.03
            over_s = f"{100 * over:+.1f}%"
        else:
            over_s = "not measured"
        print(f"| {g} | {pick} | {over_s} | {best} | {'yes' if best in ties else 'no'} | "
              f"{len(measured_ties)} of {len(ties)} | {100 * spread:.1f}% | "
              f"{t['config'].get('search')} | {wall} |")
    print(f"\nPicks within 3% of the measured best: {within} of {scored} scored groups "
          f"({len(groups) - scored} picks not measured).")


if __name__ == "__main__":
    main()
