"""cbi.Workload (NumPy addresses) and cbi.read_trace: every engine takes them through the same
route as `--trace`, with the counts of the direct run (random configurations), and bad input is a
ValueError with the command line's message."""
import os
import random
import subprocess
import tempfile

import numpy as np
import pytest

import cbi

CBI = os.path.join(os.environ.get("CBI_BIN", "build/bin"), "cbi")


def stencil_addresses(width, height, window, elem_bytes=4):
    """The clamped stencil of listing 3 as NumPy addresses: [y, x, j], rows dy outer, dx inner."""
    r = window // 2
    d = np.arange(-r, r + 1)
    dy, dx = np.repeat(d, window), np.tile(d, window)
    y = np.clip(np.arange(height)[:, None, None] + dy[None, None, :], 0, height - 1)
    x = np.clip(np.arange(width)[None, :, None] + dx[None, None, :], 0, width - 1)
    return ((y * width + x) * elem_bytes).astype(np.uint64)


def counts(doc):
    return [{k: v for k, v in row.items() if k != "cache"} for row in doc["rows"]]


@pytest.mark.parametrize("seed", range(6))
def test_a_numpy_stencil_gives_the_built_in_counts(seed):
    rng = random.Random(seed)
    w, h, s = rng.choice([16, 24, 40]), rng.choice([8, 16, 33]), rng.choice([3, 5, 7])
    cache = {"line_bytes": rng.choice([16, 64, 128]), "ways": rng.choice([0, 2, 4]),
             "granularity": rng.choice(["exact", "thread"])}
    cache["cache_bytes"] = cache["line_bytes"] * rng.choice([8, 32])
    order = rng.choice(["linear", "column:4", "tile:4"])
    mine = cbi.Workload(stencil_addresses(w, h, s))
    assert mine.shape == (w, h) and mine.instructions == s * s
    built_in = cbi.simulate(size=(w, h), stencil=f"{s}x{s}", order=order, **cache)
    # The order is the workload's own: a numpy workload is visited linearly, so remap it first.
    xs, ys = cbi.Order(order).map(np.arange(w * h), (w, h))
    visited = stencil_addresses(w, h, s)[ys, xs].reshape(1, w * h, s * s)
    ours = cbi.simulate(workload=cbi.Workload(visited), **cache)
    assert counts(ours) == counts(built_in)
    if cache["granularity"] == "exact":
        curve = cbi.mrc(workload=cbi.Workload(visited), line_bytes=cache["line_bytes"])
        direct = cbi.mrc(size=(w, h), stencil=f"{s}x{s}", order=order,
                         line_bytes=cache["line_bytes"])
        assert curve["misses"].tolist() == direct["misses"].tolist()


def test_the_gpu_model_takes_a_numpy_workload():
    w, h = 128, 64
    loads = stencil_addresses(w, h, 3)
    # The GPU model's kernels store their output after the loads: the output array follows the
    # input, element (x, y) at w*h*4 + (y*w + x)*4.
    out = (w * h * 4 + 4 * np.arange(w * h, dtype=np.uint64)).reshape(h, w, 1)
    a = np.concatenate([loads, out], axis=2)
    # On the a100 row: the h100 row's issue stage paces the built-in stencil by its measured
    # instruction count, which a numpy workload does not carry (docs/gpu-model.md).
    direct = cbi.simulate_gpu(size=(w, h), stencil="3x3", block=128, device="a100")
    ours = cbi.simulate_gpu(workload=cbi.Workload(a, stores=[False] * 9 + [True]), block=128,
                            device="a100")
    assert ours["metrics"] == direct["metrics"]
    assert ours["config"]["block"] == 128


@pytest.mark.parametrize("seed", range(4))
def test_read_trace_replays_with_the_direct_counts(seed):
    rng = random.Random(50 + seed)
    workload = rng.choice(["stencil", "matmul"])
    c = {"workload": workload, "size": rng.choice([16, 32]),
         "order": rng.choice(["linear", "column:4", "zigzag:8"])}
    if workload == "stencil":
        c["stencil"] = rng.choice(["3x3", "5x5"])
    cache = {"line_bytes": 64, "cache_bytes": 64 * rng.choice([8, 16]), "ways": rng.choice([0, 4])}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.trace")
        argv = [CBI, "trace", "-o", path] + [f"--{k}={v}" for k, v in c.items()]
        assert subprocess.run(argv, capture_output=True).returncode == 0
        t = cbi.read_trace(path)
        assert t.info["format"] == "cbi-trace 1" and t.info["blocks"] > 0
        direct = cbi.simulate(**c, **cache)
        assert counts(cbi.simulate(workload=t, **cache)) == counts(direct)
        assert counts(cbi.simulate(trace=path, **cache)) == counts(direct)
        gpu = cbi.simulate_gpu(workload=t)
        assert gpu["metrics"] == cbi.simulate_gpu(trace=path)["metrics"]


def test_an_accel_sim_trace_reports_what_it_does_not_model():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    t = cbi.read_trace(os.path.join(root, "data", "accel-sim", "kernel-1.traceg"))
    assert t.info["format"].startswith("accel-sim")
    assert (t.info["local"], t.info["shared"], t.info["atomic"]) == (1, 1, 1)
    notes = cbi.simulate(workload=t)["notes"]
    assert any("not modelled: local 1, shared 1, atomic 1" in n for n in notes), notes


def test_errors_are_value_errors_with_the_cli_message():
    a = stencil_addresses(8, 8, 3)
    with pytest.raises(ValueError, match=r"^size: a workload of your own fixes the task grid"):
        cbi.simulate(workload=cbi.Workload(a), size=8)
    with pytest.raises(ValueError, match=r"^order: a workload of your own fixes the thread order"):
        cbi.simulate(workload=cbi.Workload(a), order="column:4")
    with pytest.raises(ValueError, match=r"^bytes: 3 values for 9 instructions"):
        cbi.Workload(a, bytes=[4, 4, 4])
    with pytest.raises(ValueError, match=r"^addresses: an array of 1 axes"):
        cbi.Workload(np.arange(10, dtype=np.uint64))
    with pytest.raises(ValueError, match=r"^addresses: is an array of float64; allowed: an integer"):
        cbi.Workload(a.astype(np.float64) + 0.5)  # not truncated to whole bytes
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "bad.trace")
        with open(bad, "w") as f:
            f.write("P6\n1 1\n255\n")
        run = subprocess.run([CBI, "simulate", "--trace", bad], capture_output=True, text=True)
        assert run.returncode == 2
        with pytest.raises(ValueError) as raised:
            cbi.read_trace(bad)
        # The file at read_trace's path: named path, the keyword (the command line's --trace).
        cli_message = run.stderr.strip().split("cbi simulate: --trace: ", 1)[1]
        assert str(raised.value) == "path: " + cli_message


def test_read_trace_takes_a_path_like():
    # A pathlib.Path, as open() and cbi.simulate(trace=...) take it, was pybind11's TypeError.
    import pathlib
    root = os.environ.get("CBI_SOURCE", ".")
    path = pathlib.Path(root) / "tests" / "data" / "accel-sim" / "kernel-1.traceg"
    by_path = cbi.simulate(workload=cbi.read_trace(path))
    assert by_path["rows"] == cbi.simulate(workload=cbi.read_trace(str(path)))["rows"]
    assert by_path["rows"] == cbi.simulate(trace=path)["rows"]
    with pytest.raises(ValueError, match=r"^path: a bytes path; allowed: a str or os.PathLike"):
        cbi.read_trace(bytes(path))
    with pytest.raises(TypeError):
        cbi.read_trace(7)


def test_real_pointers_replay_as_offsets_and_bad_addresses_are_refused():
    # Addresses are replayed relative to the lowest, rounded down to 1 MiB, as traces are: a
    # workload at 0x7f0200000000 gives the counts and the curve of the same one at 0 (its curve
    # needed a slot per line of the address space, and mrc's error named --size).
    a = stencil_addresses(16, 8, 3)
    far = a + np.uint64(0x7F0200000000)
    assert counts(cbi.simulate(workload=cbi.Workload(far))) == counts(
        cbi.simulate(workload=cbi.Workload(a)))
    assert cbi.mrc(workload=cbi.Workload(far))["misses"].tolist() == cbi.mrc(
        workload=cbi.Workload(a))["misses"].tolist()
    # A negative address became a huge one (-1: NO_ACCESS); an address whose bytes pass 2^64
    # wrapped.
    with pytest.raises(ValueError, match=r"^addresses: holds negative values"):
        cbi.Workload(a.astype(np.int64) - 4)
    with pytest.raises(ValueError, match=r"^addresses: 18446744073709551614 at flat index 0"):
        cbi.Workload(np.full((2, 2, 1), 2**64 - 2, dtype=np.uint64))
    # A shape that is no (width, height) was pybind11's RuntimeError "Unable to cast".
    for shape in [(4, 4, 4), "16x16"]:
        with pytest.raises(ValueError, match=r"^shape: .* is not a task grid"):
            cbi.Order("column:4").map(np.arange(4), shape)


def test_a_curve_of_buffers_far_apart_keeps_the_lines_it_touches():
    # Two buffers 2^44 bytes apart (a trace's device buffer and a managed one): the curve kept a
    # slot per line of the span between them, 2^40 lines, and was refused for memory; now it keeps
    # the lines touched, and it is the curve of the same buffers side by side (the sparse table and
    # the dense one), equal to the simulation of each size (verify), beyond the tree's first 2^16
    # times (its growth and compaction).
    rng = np.random.default_rng(7)
    lines = rng.integers(0, 40000, size=(300, 500, 2)).astype(np.uint64)
    lines[:, :, 1] += np.uint64(40000)  # the second buffer's lines
    near = lines * np.uint64(16)
    far = near.copy()
    far[:, :, 1] += np.uint64(2**44)
    sizes = [1, 64, 4096, 30000, 70000]
    dense = cbi.mrc(workload=cbi.Workload(near), line_bytes=16, sizes=sizes)
    sparse = cbi.mrc(workload=cbi.Workload(far), line_bytes=16, sizes=sizes, verify=True)
    assert sparse["misses"].tolist() == dense["misses"].tolist()
    assert sparse["simulated_misses"].tolist() == sparse["misses"].tolist()
    assert 60000 < dense["meta"]["distinct_lines"] <= 80000


@pytest.mark.parametrize("read", ["read_trace", "simulate", "mrc"])
def test_ctrl_c_stops_reading_a_long_trace(tmp_path, read):
    # A trace that does not end: a writer thread streams cbi-trace blocks into a FIFO until the
    # reader goes away, or for 30 s, after which the file ends without its "end" line and reading
    # it fails (a ValueError, not the KeyboardInterrupt asked for).
    import threading
    import time
    from long_runs import assert_ctrl_c_stops

    fifo = str(tmp_path / "endless.trace")
    os.mkfifo(fifo)

    def write():
        try:
            with open(fifo, "w") as f:
                f.write("cbi-trace 1\nkernel endless\ngrid 1073741824,1,1\nblock 32,1,1\n"
                        "elem_bytes 4\nlaunched\n")
                start, block = time.monotonic(), 0
                while time.monotonic() - start < 30:
                    f.write("".join(f"B {b},0,0\nW 0\n0 L 4 32@{128 * b:x}+4\n"
                                    for b in range(block, block + 1000)))
                    block += 1000
        except OSError:
            pass  # the reader stopped (a broken pipe)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    # cbi.simulate(trace=...) and cbi.mrc(trace=...) check the file as read_trace does; they ran
    # on until the file ended.
    if read == "read_trace":
        assert_ctrl_c_stops(lambda: cbi.read_trace(fifo))
    else:
        assert_ctrl_c_stops(lambda: getattr(cbi, read)(trace=fifo))
    writer.join(timeout=35)
