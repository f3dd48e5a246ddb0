"""Real Accel-Sim NVBit kernel traces from public repositories replay in cbi (cbi.read_trace, the
sequential simulator and the GPU model, Python and the command line alike), with the counts that a
reader written here, independently of cbi's, finds in the file.

The traces are third-party data and live outside this repository: in the folder CBI_REAL_TRACES
(ctest sets it; by default ../shared/traces/accel-sim beside the checkout), one `NAME.traceg` each
(docs/traces.md lists those tested). Without them that part is skipped, saying where they go; the
hand-written trace of tests/data runs through the same checks either way."""
import glob
import json
import os
import subprocess

import pytest

import cbi

CBI = os.path.join(os.environ.get("CBI_BIN", "build/bin"), "cbi")
FOLDER = os.environ.get("CBI_REAL_TRACES", "")
TRACES = sorted(glob.glob(os.path.join(FOLDER, "*.traceg"))) if FOLDER else []
# The hand-written trace of tests/data (every address mode, local, shared and atomic accesses, two
# blocks) goes through the same checks, so that they run where the real traces are absent too.
SOURCE = os.environ.get("CBI_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = sorted(glob.glob(os.path.join(SOURCE, "tests", "data", "accel-sim", "*.traceg")))

SHARED = ("LDS", "STS", "LDSM")
LOCAL = ("LDL", "STL")
ATOMIC = ("ATOM", "ATOMG", "ATOMS", "RED", "REDG")


def width(opcode):
    """Bytes per lane: the first modifier that is a bit count (LDG.E.128) or U<bits>, else 4."""
    for mod in opcode.split(".")[1:]:
        bits = mod[1:] if mod.startswith("U") else mod
        if bits.isdigit() and int(bits) in (8, 16, 32, 64, 128):
            return int(bits) // 8
    return 4


def lane_addresses(mask, fields):
    """The active lanes' addresses of a memory instruction's address fields (modes 0, 1, 2)."""
    lanes = [l for l in range(32) if mask >> l & 1]
    mode, rest = int(fields[0]), fields[1:]
    if mode == 0:
        return [int(a, 16) for a in rest[:len(lanes)]]
    if mode == 1:
        base, stride = int(rest[0], 16), int(rest[1])
        return [base + stride * k for k in range(len(lanes))]
    addrs = [int(rest[0], 16)]
    for delta in rest[1:len(lanes)]:
        addrs.append(addrs[-1] + int(delta))
    return addrs


def read(path):
    """Counts of an Accel-Sim kernel trace, read here line by line."""
    c = dict(blocks=0, warps=0, instructions=0, global_loads=0, global_stores=0, lane_accesses=0,
             skipped=0, local=0, shared=0, atomic=0, other=0, load_lanes=0, store_lanes=0,
             requests=0, request_sectors=0)
    sectors, every, lineinfo = set(), set(), False
    block_sectors, c["block_load_sectors"] = set(), 0
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("-"):
                key, _, value = line[1:].partition(" = ")
                if key in ("grid dim", "block dim"):
                    c[key.split()[0]] = tuple(int(v) for v in value.strip("()").split(","))
                elif key == "accelsim tracer version":
                    c["version"] = int(value)
                elif key == "enable lineinfo":
                    lineinfo = value == "1"
                continue
            if not line or line.startswith("#"):
                c["blocks"] += line == "#BEGIN_TB"
                if line == "#END_TB":  # each block's loads on its own SM: its own L1 misses
                    c["block_load_sectors"] += len(block_sectors)
                    block_sectors = set()
                continue
            if line.startswith("warp = "):
                c["warps"] += 1
                continue
            if "=" in line:  # thread block, insts, cluster lines
                continue
            f_ = line.split()[1:] if lineinfo else line.split()
            mask, ndst = int(f_[1], 16), int(f_[2])
            opcode = f_[3 + ndst]
            nsrc = int(f_[4 + ndst])
            mem_width = int(f_[5 + ndst + nsrc])
            c["instructions"] += 1
            if mem_width == 0:
                c["skipped"] += 1
                continue
            base = opcode.split(".")[0]
            if base not in ("LDG", "STG"):
                key = ("shared" if base in SHARED else "local" if base in LOCAL else
                       "atomic" if base in ATOMIC else "other")
                c[key] += 1
                continue
            addrs = lane_addresses(mask, f_[6 + ndst + nsrc:])
            nbytes = width(opcode)
            c["lane_accesses"] += len(addrs)
            touched = {s for a in addrs for s in range(a >> 5, (a + nbytes - 1 >> 5) + 1)}
            every |= touched
            if base == "LDG":
                c["global_loads"] += 1
                c["load_lanes"] += sum((a + nbytes - 1 >> 5) - (a >> 5) + 1 for a in addrs)
                if addrs:
                    c["requests"] += 1
                    c["request_sectors"] += len(touched)
                    sectors |= touched
                    block_sectors |= touched
            else:
                c["global_stores"] += 1
                c["store_lanes"] += sum((a + nbytes - 1 >> 5) - (a >> 5) + 1 for a in addrs)
    c["load_sectors"], c["sectors"] = len(sectors), len(every)
    return c


def cli(*args):
    run = subprocess.run([CBI, *args, "--format", "json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    doc.pop("context", None)
    return doc


def timeless(doc):
    doc = dict(doc)
    doc["meta"] = {k: v for k, v in doc["meta"].items()
                   if k not in ("seconds", "accesses_per_second")}
    return doc


def test_real_traces_are_there():
    if not TRACES:
        pytest.skip(f"no *.traceg in CBI_REAL_TRACES={FOLDER!r}: put the public traces that "
                    "docs/traces.md lists there (the steering repo's shared/traces/accel-sim)")


@pytest.mark.parametrize("path", FIXTURES + TRACES,
                         ids=[os.path.basename(p) for p in FIXTURES + TRACES])
def test_a_real_trace_replays_with_the_counts_in_its_file(path):
    want = read(path)
    trace = cbi.read_trace(path)
    info = trace.info
    assert info["format"] == f"accel-sim {want['version']}"
    assert info["grid"] == want["grid"] and info["block"] == want["block"]
    for key in ("blocks", "warps", "instructions", "global_loads", "global_stores",
                "lane_accesses"):
        assert info[key] == want[key], key
    notes = " ".join(trace.notes)
    assert f"skipped (no memory access): {want['skipped']} warp instructions" in notes or \
        want["skipped"] == 0
    if want["shared"] + want["local"] + want["atomic"] + want["other"]:
        assert (f"not modelled: local {want['local']}, shared {want['shared']}, atomic "
                f"{want['atomic']}, other {want['other']}") in notes

    # Sequential, 32-byte lines in a cache that holds the whole footprint: an access per sector a
    # lane touches; the misses, each distinct sector once.
    cache = dict(line_bytes=32, cache_bytes="1MiB", ways=0)
    seq = cbi.simulate(workload=trace, **cache)
    l1 = seq["rows"][0]
    assert (l1["loads"], l1["stores"]) == (want["load_lanes"], want["store_lanes"])
    assert l1["misses"] == want["sectors"]
    assert timeless(seq) == timeless(cli("simulate", "--trace", path, "--line-bytes", "32",
                                         "--cache-bytes", "1MiB", "--ways", "0"))

    # The GPU model: one request per warp load with active lanes, its distinct sectors; with no
    # more blocks than the H100's 132 SMs each block runs on an SM of its own, whose L1 keeps the
    # small footprint, so each sector misses once per block that loads it.
    gpu = cbi.simulate_gpu(workload=trace, device="h100")
    m = gpu["metrics"]
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == want["requests"]
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == want["request_sectors"]
    assert want["blocks"] <= 132
    assert (m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] ==
            want["block_load_sectors"])
    cli_gpu = cli("simulate", "--trace", path, "--model", "gpu", "--device", "h100")
    gpu["meta"].pop("seconds")
    cli_gpu["meta"].pop("seconds")
    assert gpu == cli_gpu
