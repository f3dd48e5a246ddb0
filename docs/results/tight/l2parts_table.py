#!/usr/bin/env python3
"""The L2 partitions probe (kernels/probes/l2_parts.cu, kernels/scripts/l2parts_run.sh) as tables.

map: per side (sides: the probe's two latency clusters), the first- and second-pass latencies of
the chased lines (cycles; only loads k = 1, 2 mod 4 are single loads: the compiler unrolls the
chase by 4 and reads the clock of loads 0 mod 4 before their data and of loads 3 mod 4 after two).
foot: per footprint and pattern, ncu's DRAM bytes read beyond the footprint (pass 2's misses,
in MiB), the tex reads and their hits, the fabric lookups and their hits, and the hit rate.
lrc: per run, the L2 request coalescer's merged reads, the tex reads, the fabric lookups.
ncu: the tiled launches' tex and fabric reads and writes.

usage: l2parts_table.py l2parts.tar.gz"""
import csv, io, statistics as st, sys, tarfile


def ncu_rows(text):
    rows = list(csv.DictReader(io.StringIO("".join(l for l in text.splitlines(True) if l.startswith('"')))))
    by = {}
    for r in rows:
        by.setdefault(int(r["ID"]), {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return [by[k] for k in sorted(by)]


def member(tar, name):
    for m in tar.getmembers():
        if m.name.split("/")[-1] == name:
            return tar.extractfile(m).read().decode()
    return None


def map_table(tar):
    side = dict(map(int, l.split()) for l in member(tar, "sides").split("\n") if l.strip())
    print("| reference SM | reader side | lines | pass 1: median (cycles) | pass 1: share above 380 | pass 2: median | pass 2: share above 380 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for ref in ("0", "131"):
        text = member(tar, f"map-ref{ref}.csv")
        rows = [r for r in csv.DictReader(io.StringIO(text)) if int(r["k"]) % 4 in (1, 2)]
        for s in (0, 1):
            a = [int(r["lat1"]) for r in rows if side[int(r["smid"])] == s]
            b = [int(r["lat2"]) for r in rows if side[int(r["smid"])] == s]
            print(f"| {ref} | {s} ({sum(1 for v in side.values() if v == s)} SMs) | {len(a)} | {st.median(a):.0f} | "
                  f"{sum(x > 380 for x in a) / len(a):.2f} | {st.median(b):.0f} | {sum(x > 380 for x in b) / len(b):.2f} |")
    print()
    print("side 0:", " ".join(str(s) for s in sorted(side) if side[s] == 0))
    print("side 1:", " ".join(str(s) for s in sorted(side) if side[s] == 1))
    for b in ("1024", "256", "128"):
        text = member(tar, f"order-b{b}.csv")
        if text:
            sms = [int(r["smid"]) for r in csv.DictReader(io.StringIO(text))]
            print(f"first wave, block {b}: sides of CTAs 0..63:", "".join(str(side[s]) for s in sms[:64]))


def g(v, k):
    return v.get(k, float("nan"))


def foot_table(tar):
    print("| footprint MiB | pattern | DRAM read beyond the footprint (MiB) | tex reads (M sectors) | tex hits | fabric lookups (M) | fabric hits | hit rate % |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    sizes = sorted({int(m.name.split("-")[-1][:-4]) for m in tar.getmembers() if m.name.split("/")[-1].startswith("foot-") and m.name.endswith(".csv")})
    for f in sizes:
        pats = ["one0", "one1", "both", "swap"] + (["single"] if f <= 64 else [])
        for p, v in zip(pats, ncu_rows(member(tar, f"foot-{f}.csv"))):
            extra = g(v, "dram__bytes_read.sum") / 2**20 - f
            print(f"| {f} | {p} | {extra:.1f} | {g(v, 'lts__t_sectors_srcunit_tex_op_read.sum') / 1e6:.3f} | "
                  f"{g(v, 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum') / 1e6:.3f} | "
                  f"{g(v, 'lts__t_sectors_srcunit_ltcfabric.sum') / 1e6:.3f} | "
                  f"{g(v, 'lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum') / 1e6:.3f} | {g(v, 'lts__t_sector_hit_rate.pct'):.1f} |")


def lrc_table(tar):
    log = member(tar, "run-log.txt") or ""
    print("| run | merged / eligible | tex reads / (readers x 32768) | fabric lookups (M) | DRAM MiB |")
    print("| --- | --- | --- | --- | --- |")
    i = 1
    while member(tar, f"lrc-{i}.csv"):
        v = ncu_rows(member(tar, f"lrc-{i}.csv"))[0]
        desc = member(tar, f"lrc-{i}.log").strip().splitlines()[-1]
        readers = int(desc.split(",")[-1].split()[0])
        el = g(v, "lrc__request_sectors_op_read_coalescable.sum")
        print(f"| {i}: {desc} | {g(v, 'lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum') / el:.3f} | "
              f"{g(v, 'lts__t_sectors_srcunit_tex_op_read.sum') / (readers * 32768):.3f} | "
              f"{g(v, 'lts__t_sectors_srcunit_ltcfabric.sum') / 1e6:.3f} | {g(v, 'dram__bytes_read.sum') / 2**20:.1f} |")
        i += 1


def ncu_table(tar):
    print("| launch | tex reads (M) | tex read hits | tex writes | fabric reads (hits) | fabric writes (hits) | DRAM read (M sectors) | L2 hit rate |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in ("sgemm-2048", "sgemm-6144x4096", "smem-2048"):
        for v in ncu_rows(member(tar, f"ncu-{name}.csv")):
            print(f"| {name} | {g(v, 'lts__t_sectors_srcunit_tex_op_read.sum') / 1e6:.2f} | "
                  f"{g(v, 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum') / 1e6:.2f} | "
                  f"{g(v, 'lts__t_sectors_srcunit_tex_op_write.sum') / 1e6:.2f} | "
                  f"{g(v, 'lts__t_sectors_srcunit_ltcfabric_op_read.sum') / 1e6:.2f} ({g(v, 'lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum') / 1e6:.2f}) | "
                  f"{g(v, 'lts__t_sectors_srcunit_ltcfabric_op_write.sum') / 1e6:.2f} ({g(v, 'lts__t_sectors_srcunit_ltcfabric_op_write_lookup_hit.sum') / 1e6:.2f}) | "
                  f"{g(v, 'dram__bytes_read.sum') / 32e6:.2f} | {g(v, 'lts__t_sector_hit_rate.pct'):.1f} |")


def main():
    tar = tarfile.open(sys.argv[1])
    map_table(tar)
    print()
    foot_table(tar)
    print()
    lrc_table(tar)
    print()
    ncu_table(tar)


if __name__ == "__main__":
    main()
