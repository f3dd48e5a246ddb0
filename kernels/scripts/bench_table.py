#!/usr/bin/env python3
"""Markdown tables from `cbi bench --format json` files: the device block once, then one row per
configuration (check, median, noise, GB/s, GFLOP/s, roofline fraction, resources, counters).

usage: kernels/scripts/bench_table.py bench-a.json [bench-b.json ...]
"""
import json
import sys


def fmt(v, digits=3):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}g}" if abs(v) < 1e5 else f"{v:.3e}"
    return str(v)


def main(paths):
    device_printed = False
    for path in paths:
        doc = json.load(open(path))
        if not device_printed:
            print("| device | value |\n| --- | --- |")
            for k, v in doc["device"].items():
                print(f"| {k} | {v} |")
            print()
            device_printed = True
        print(f"`{doc['command']}` ({doc['date']})\n")
        print("| kernel | order | math | block order | type | check (rel err) | median ms | noise | n | GB/s | GFLOP/s "
              "| roofline | regs | smem B | local B | L1 hit % | L2 hit % | L2->L1 sectors "
              "| DRAM read MB |")
        print("| " + " | ".join(["---"] * 19) + " |")
        for r in doc["results"]:
            c, m, res = r["check"], r["metrics"], r["resources"]
            check = ("pass" if c["passed"] else "FAIL") + f" ({c['rel_error']:.1e})" if c["ran"] else "off"
            avail = m.get("available")
            print("| " + " | ".join([
                r["kernel"], r["order"], r.get("remap_math", "div"), r.get("block_order", "linear"),
                r["type"], check, fmt(r["median_ms"], 4),
                f"{100 * r['noise']:.2f}%", str(len(r["samples_ms"])), fmt(r["gbs"], 4),
                fmt(r["gflops"], 4), f"{r['roofline_fraction']:.3f} ({r['bound']})",
                str(res["registers"]), str(res["static_shared_bytes"] + res["dynamic_shared_bytes"]),
                str(res["local_bytes"]),
                fmt(m.get("l1tex__t_sector_hit_rate.pct"), 4) if avail else "n/a",
                fmt(m.get("lts__t_sector_hit_rate.pct"), 4) if avail else "n/a",
                fmt(m.get("lts__t_sectors_srcunit_tex_op_read.sum"), 4) if avail else "n/a",
                fmt(m.get("dram__bytes_read.sum", 0) / 1e6, 4) if avail else "n/a",
            ]) + " |")
        for n in doc.get("notes", []):
            print(f"\nNote: {n}")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
