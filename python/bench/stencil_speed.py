"""The 9x9 stencil as a NumPy workload beside the built-in one (issue 19 §2; recorded in
docs/results/traces-speed.md). Run from the repository root after a Release build:

    PYTHONPATH=build/python python3 python/bench/stencil_speed.py [SIZE] [REPEATS]

Prints, per cache, the built-in's and the NumPy workload's replay time (median of REPEATS) and
accesses per second, the time to build the address array, and checks that the counts agree.
"""
import statistics
import sys
import time

import numpy as np

import cbi

SIZE = int(sys.argv[1]) if len(sys.argv) > 1 else 512
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
CACHES = {
    "(a) 24 x 16 B fully associative": {"line_bytes": 16, "lines": 24},
    "(b) 256 KiB 8-way": {"line_bytes": 128, "cache_bytes": "256KiB", "ways": 8},
    "(c) L1 32 KiB 8-way -> L2 4 MiB": {"level": ["size=32KiB,line=128,ways=8",
                                                  "size=4MiB,line=128,ways=16"]},
}


def stencil_addresses(width, height, window=9, elem_bytes=4):
    """Listing 3's clamped stencil, vectorised: [y, x, j], window rows outer, columns inner."""
    r = window // 2
    d = np.arange(-r, r + 1)
    dy, dx = np.repeat(d, window), np.tile(d, window)
    y = np.clip(np.arange(height)[:, None, None] + dy, 0, height - 1)
    x = np.clip(np.arange(width)[None, :, None] + dx, 0, width - 1)
    return ((y * width + x) * elem_bytes).astype(np.uint64)


def median_seconds(run):
    times, result = [], None
    for _ in range(REPEATS):
        result = run()
        times.append(result["meta"]["seconds"])
    return statistics.median(times), result


start = time.perf_counter()
workload = cbi.Workload(stencil_addresses(SIZE, SIZE))
build = time.perf_counter() - start
accesses = SIZE * SIZE * 81
print(f"9x9 clamped stencil, {SIZE}x{SIZE} float, linear: {accesses:,} loads; "
      f"address array {accesses * 8 / 2**20:.0f} MiB built in {build:.2f} s")
print("| cache | built-in | NumPy workload | ratio |")
print("| --- | --- | --- | --- |")
for name, cache in CACHES.items():
    t_built, built = median_seconds(lambda: cbi.simulate(size=SIZE, stencil="9x9", **cache))
    t_numpy, numpy_ = median_seconds(lambda: cbi.simulate(workload=workload, **cache))
    same = [r["misses"] for r in built["rows"]] == [r["misses"] for r in numpy_["rows"]]
    assert same, (built["rows"], numpy_["rows"])
    print(f"| {name} | {t_built * 1e3:.0f} ms ({accesses / t_built / 1e6:.0f} M/s) | "
          f"{t_numpy * 1e3:.0f} ms ({accesses / t_numpy / 1e6:.0f} M/s) | "
          f"{100 * t_built / t_numpy:.0f}% |")
