"""cbi.simulate, cbi.simulate_gpu and cbi.mrc give what the command line gives for the same
configuration (random configurations, compared with `cbi ... --format json`), fail as it fails,
release the GIL and stop on Ctrl-C."""
import json
import random

import numpy as np
import pytest

import cbi
from cli_run import as_keywords, cli
from long_runs import assert_ctrl_c_stops, assert_gil_released

# Facts of the run, not of the result: wall-clock time, and the host threads (--jobs's default
# is the cores idle at the start, which another process changes between two runs).
TIMING = {"seconds", "accesses_per_second", "jobs"}


def comparable(doc):
    doc = dict(doc)
    doc.pop("context", None)
    doc["meta"] = {k: v for k, v in doc.get("meta", {}).items() if k not in TIMING}
    return doc


def random_sequential(rng):
    workload = rng.choice(["stencil", "matmul", "stencil3d"])
    c = {"workload": workload, "size": rng.choice([16, 24, 40, 64]),
         "order": rng.choice(["linear", "column:4", "column:7", "zigzag:8", "tile:4", "tile:2x8"]),
         "line_bytes": rng.choice([16, 32, 64, 128]), "ways": rng.choice([0, 2, 4]),
         "policy": rng.choice(["lru", "fifo", "random"]),
         "granularity": rng.choice(["exact", "thread"])}
    c["cache_bytes"] = c["line_bytes"] * rng.choice([8, 16, 32, 64])
    if workload == "stencil":
        c["stencil"] = rng.choice(["3x3", "5x5", "7x3"])
    if workload == "matmul":
        c["depth"] = rng.choice([8, 16, 32])
    if rng.random() < 0.3:
        c["writes"] = True
    return c


@pytest.mark.parametrize("seed", range(12))
def test_simulate_equals_the_cli_on_random_configurations(seed):
    c = random_sequential(random.Random(seed))
    rc, out, err = cli("simulate", **c)
    assert rc == 0, err
    assert comparable(cbi.simulate(**c)) == comparable(json.loads(out))


@pytest.mark.parametrize("seed", range(4))
def test_simulate_gpu_equals_the_cli_on_random_configurations(seed):
    rng = random.Random(100 + seed)
    c = {"workload": rng.choice(["stencil", "matmul"]), "size": rng.choice([64, 96, 128]),
         "order": rng.choice(["linear", "column:8", "column:32", "tile:8"]),
         "device": rng.choice(["h100", "a100", "rtx2080super"]), "block": rng.choice([64, 128, 256])}
    rc, out, err = cli("simulate", model="gpu", **c)
    assert rc == 0, err
    python = cbi.simulate_gpu(**c)
    assert comparable(python) == comparable(json.loads(out))
    assert "l1tex__t_sector_hit_rate.pct" in python["metrics"]


@pytest.mark.parametrize("seed", range(4))
def test_mrc_arrays_equal_the_cli_rows(seed):
    c = random_sequential(random.Random(200 + seed))
    c = {k: v for k, v in c.items() if k not in ("ways", "policy", "cache_bytes")}
    rc, out, err = cli("mrc", **c)
    assert rc == 0, err
    rows = json.loads(out)["rows"]
    curve = cbi.mrc(**c)
    assert isinstance(curve["misses"], np.ndarray)
    for column in rows[0]:
        assert curve[column].tolist() == [row[column] for row in rows]


def test_keywords_spell_values_as_the_cli():
    a = cbi.simulate(size=(48, 32), stencil="5x5", order=cbi.Order("column:8"), writes=True,
                     level=["size=2KiB,line=64,ways=4", "size=16KiB,line=64,ways=8"])
    rc, out, err = cli("simulate", size="48x32", stencil="5x5", order="column:8", writes=True,
                       level="size=2KiB,line=64,ways=4")
    assert len(a["rows"]) == 2 and a["config"]["width"] == 48 and a["config"]["writes"] is True
    assert a["rows"][0] == json.loads(out)["rows"][0]  # L1 does not depend on L2
    assert cbi.simulate(preset="table3.1")["rows"][0]["misses"] == 462  # README: 462 misses


@pytest.mark.parametrize("options", [
    {"ways": 3, "line_bytes": 128, "cache_bytes": "32KiB"},
    {"order": "diagonal"},
    {"size": 0},
    {"model": "gpu", "classify_misses": True},
    {"device": "h100"},
])
def test_errors_are_value_errors_with_the_cli_message(options):
    rc, _, err = cli("simulate", **options)
    assert rc == 2
    message = err.strip().split("cbi simulate: ", 1)[1]
    with pytest.raises(ValueError) as raised:
        cbi.simulate(**options)
    assert str(raised.value) == as_keywords(message)


@pytest.mark.parametrize("call, message", [
    (lambda: cbi.simulate(lines=0), r"^lines: '0' is out of range"),
    (lambda: cbi.simulate(cache_bytes="8xyz"), r"^cache_bytes: '8xyz' is not a size"),
    (lambda: cbi.simulate(line_bytes=3), r"^line_bytes: .* element size \(type\)$"),
    (lambda: cbi.simulate(type="half", elem_bytes=4), r"^elem_bytes: 4 \(float\) disagrees with "
                                                      r"type='half'; allowed"),
    (lambda: cbi.simulate(model="gpu", sample_sms=7), r"^sample_sms: 7 SMs do not divide"),
    # a device of one SM is "the 1 SM of tiny" (it said "the 1 SMs")
    (lambda: cbi.simulate(model="gpu", device="tiny", block=1, sample_sms=3),
     r"^sample_sms: 3 SMs do not divide the 1 SM of tiny;"),
    (lambda: cbi.mrc(sizes="0"), r"^sizes: "),
    (lambda: cbi.tune(size=32, final_sms=7), r"^final_sms: "),
    (lambda: cbi.tune(workload=cbi.Workload(np.zeros((4, 4, 1), dtype=np.uint64))),
     r"^workload: .*allowed: a built-in workload's name"),
    # one --jobs cap in every command (tune's was 256, simulate's 1024)
    (lambda: cbi.tune(size=16, jobs=1025), r"^jobs: '1025' is out of range; allowed: an integer "
                                           r"from 1 to 1024$"),
    (lambda: cbi.simulate(model="gpu", jobs=1025), r"^jobs: '1025' is out of range; allowed: an "
                                                   r"integer from 1 to 1024$"),
    # a value given twice is refused (tune ranked it once with a note, mrc merged it)
    (lambda: cbi.tune(size=16, orders=["column:4", "linear", "column:4"]),
     r"^orders: 'column:4' is given twice; allowed: each order once$"),
    (lambda: cbi.mrc(size=16, sizes=[8, 2, 8]), r"^sizes: '8' is given twice; allowed: each value "
                                                r"once$"),
    (lambda: cbi.read_trace(""), r"^path: empty path; allowed: a trace file"),
])
def test_errors_name_the_keyword_the_call_passed(call, message):
    # A Python user passed lines=0, never --lines: the error named the command line's option.
    with pytest.raises(ValueError, match=message) as raised:
        call()
    assert "--" not in str(raised.value), str(raised.value)


@pytest.mark.parametrize("call, message", [
    (lambda: cbi.simulate(model="gpu", ways=4),
     "allowed: leave it out or model='sequential'"),
    (lambda: cbi.simulate(seed=3), "seed: policy='lru' draws no random numbers; allowed: leave it "
                                   "out, or policy='random' or 'volta'"),
    (lambda: cbi.simulate(depth=4), "allowed: leave it out, or workload='matmul', 'stencil3d' or "
                                    "'sgemm-tiled'"),
    (lambda: cbi.simulate(lines=24, cache_bytes="1K"), "(lines=N or cache_bytes=BYTES)"),
    (lambda: cbi.tune(size=32, search="full", finalists=3), "allowed: leave it out, or "
                                                            "search='staged'"),
    (lambda: cbi.simulate(level="size=0"), "level: 'size=0' is out of range; allowed: a size from "
                                           "1 B to 1TiB"),
])
def test_errors_write_values_as_the_call_passes_them(call, message):
    # "allowed: ... or model sequential" was no Python a user could type: model='sequential' is.
    with pytest.raises(ValueError) as raised:
        call()
    assert message in str(raised.value), str(raised.value)


def test_the_module_has_the_version_cbi_prints():
    # cbi.__version__ is the project's one number, as `cbi --version` prints it (it had none).
    import subprocess
    from cli_run import CBI
    printed = subprocess.run([CBI, "--version"], capture_output=True, text=True).stdout
    assert printed.startswith("cbi " + cbi.__version__ + " ")
    assert cbi.__version__.count(".") == 2


@pytest.mark.parametrize("key", ["format", "output", "wide", "help"])
def test_the_command_lines_output_options_are_refused_saying_why(key):
    # format="json" was "is not an option of cbi simulate", which `cbi simulate --help` lists.
    for call in (cbi.simulate, cbi.mrc, cbi.tune, cbi.diagram_cells):
        with pytest.raises(ValueError, match=r"^" + key + r": is cbi \w+'s, for the text or file "
                                             r"it writes; the call returns its result instead; "
                                             r"allowed: leave it out$"):
            call(size=16, **{key: "out.json" if key != "wide" else True})


@pytest.mark.parametrize("call, message", [
    (lambda: cbi.simulate(stencl="3x3"), r"^stencl: is not an option of cbi simulate \(did you "
                                         r"mean stencil\?\); allowed"),
    (lambda: cbi.simulate(orders="linear"), r"\(did you mean order\?\)"),
    (lambda: cbi.tune(orde="linear"), r"\(did you mean order or orders\?\)"),
    (lambda: cbi.simulate(cache_byte="1KiB"), r"\(did you mean cache_bytes\?\)"),
])
def test_a_misspelled_keyword_names_the_one_meant(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_an_unknown_keyword_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match=r"^cache_size: is not an option of cbi simulate"):
        cbi.simulate(cache_size=1024)


@pytest.mark.parametrize("options, message", [
    ({"sizes": []}, r"^sizes: is an empty list; allowed: one value"),
    ({"orders": []}, r"^orders: is an empty list"),
    ({"writes": 1}, r"^writes: is a switch; allowed: True or False"),
    ({"writes": "yes"}, r"^writes: is a switch; allowed: True or False"),
    ({"ways": True}, r"^ways: takes a value, not True or False"),
    # A list for an option given once; a tuple that is no extent (it was "--stencil: given twice").
    ({"order": ["linear", "column:4"]},
     r"^order: is a list of 2 values, and order takes one; allowed: one value$"),
    ({"stencil": (3.5, 3)}, r"^stencil: is a list of 2 values, and stencil takes one; allowed: "
                            r"one value, or a tuple of whole numbers for an extent, \(1024, 512\)$"),
])
def test_keywords_the_cli_would_refuse_are_value_errors_naming_them(options, message):
    # The command line refuses `--sizes ""` and has no `--writes yes`: neither may be ignored here.
    command = cbi.tune if "orders" in options else cbi.mrc if "sizes" in options else cbi.simulate
    with pytest.raises(ValueError, match=message):
        command(size=16, **options)


def test_tuples_of_numbers_are_extents_and_none_is_left_out():
    three = cbi.simulate(size=(16, 8, 4), stencil="3x3")  # as --size 16x8x4: 16 x 32 folded
    assert (three["config"]["width"], three["config"]["height"]) == (16, 32)
    assert cbi.simulate(size=(np.int64(16), 8))["config"]["height"] == 8
    assert cbi.simulate(order=None)["config"]["order"] == "linear"
    # A tuple of words and a NumPy array are lists, as a Python list is.
    assert cbi.mrc(size=16, sizes=np.array([4, 8]))["capacity_lines"].tolist() == [4, 8]
    ranked = cbi.tune(size=64, orders=("linear", "column:4"), search="full")
    assert sorted(r["order"] for r in ranked["ranking"]) == ["column:4", "linear"]


LONG = {"size": 8192, "stencil": "9x9", "line_bytes": 128, "cache_bytes": "32KiB", "ways": 8}


def test_ctrl_c_stops_a_long_simulation():
    # 5.4 G accesses: far more than the 0.5 s before the interrupt
    assert_ctrl_c_stops(lambda: cbi.simulate(**LONG))


def test_ctrl_c_stops_a_long_gpu_model_run():
    # a 4096^2 matmul on the H100 row: minutes on this machine
    assert_ctrl_c_stops(lambda: cbi.simulate_gpu(workload="matmul", size=4096, device="h100"))


def test_ctrl_c_stops_a_long_miss_ratio_curve():
    # 5.4 G accesses of the 8192^2 9x9 stencil in one pass
    assert_ctrl_c_stops(lambda: cbi.mrc(size=8192, stencil="9x9", line_bytes=128))


def test_the_gil_is_released_while_simulating():
    # 4096^2 x 81 accesses: about a second (1024^2 took 0.08 s on an idle core, under the 0.1 s
    # that assert_gil_released asks for)
    assert_gil_released(lambda: cbi.simulate(size=4096, stencil="9x9", line_bytes=128,
                                             cache_bytes="32KiB", ways=8))
