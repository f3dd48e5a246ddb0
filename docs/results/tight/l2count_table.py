#!/usr/bin/env python3
"""The L2 counting probe (kernels/probes/l2_count.sh) as a table: per profiled launch, what
lts__t_sector_hit_rate.pct counts. Its sectors are the tex unit's reads and writes plus the lookups
that came over the fabric between the L2's two partitions; per part the tag hits and misses; beside
them DRAM's sectors read and bytes written, the L2 request coalescer's merged reads, and the rate as
the GPU model counts it with one L2, stores as hits: (R - D + W) / (R + W), R the tex reads, D the
DRAM sectors read, W the tex writes.

usage: l2count_table.py l2count.tar.gz"""
import csv, io, re, sys, tarfile

ORDER = re.compile(r"blocks ([^>]+)>|(Linear|Column|Tile|Zigzag)")


def launches(tar):
    for m in sorted(tar.getmembers(), key=lambda m: m.name):
        name = m.name.split("/")[-1]
        if not (name.startswith("ncu-") and name.endswith(".csv")) or "occupancy" in name:
            continue
        text = tar.extractfile(m).read().decode()
        rows = list(csv.DictReader(io.StringIO("".join(l for l in text.splitlines(True) if l.startswith('"')))))
        by = {}
        for r in rows:
            by.setdefault(r["ID"], {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        bench = tar.extractfile(m.name.replace("ncu-", "bench-")) if any(
            x.name == m.name.replace("ncu-", "bench-") for x in tar.getmembers()) else None
        orders = []
        if bench:
            for r in csv.DictReader(io.StringIO(bench.read().decode())):
                b = r.get("block_order") or "-"
                orders.append(b if b != "-" else r.get("order") or "?")
        for i, (k, v) in enumerate(sorted(by.items(), key=lambda kv: int(kv[0]))):
            yield name[4:-4], orders[i] if i < len(orders) else k, v


def main():
    tar = tarfile.open(sys.argv[1])
    print("| launch | order | tex reads R | their misses | DRAM sectors read D | tex writes W (misses) | "
          "fabric lookups (misses) | LRC merged / eligible | DRAM written / W bytes | hit rate measured | "
          "(R - D + W) / (R + W) |")
    print("|" + " --- |" * 11)
    for launch, order, m in launches(tar):
        R = m["lts__t_sectors_srcunit_tex_op_read.sum"]
        D = m["dram__bytes_read.sum"] / 32
        W = m["lts__t_sectors_srcunit_tex_op_write.sum"]
        F = m["lts__t_sectors_srcunit_ltcfabric.sum"]
        merged = m.get("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", float("nan"))
        eligible = m.get("lrc__request_sectors_op_read_coalescable.sum", float("nan"))
        print(f"| {launch} | {order} | {R / 1e6:.2f} M | {m['lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum'] / 1e6:.2f} M | "
              f"{D / 1e6:.2f} M | {W / 1e6:.2f} M ({m['lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum']:.0f}) | "
              f"{F / 1e6:.2f} M ({m['lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum'] / 1e6:.2f} M) | "
              f"{100 * merged / eligible:.1f}% | {m['dram__bytes_write.sum'] / (32 * W):.2f} | "
              f"{m['lts__t_sector_hit_rate.pct']:.1f} | {100 * (R - D + W) / (R + W):.1f} |")


if __name__ == "__main__":
    main()
