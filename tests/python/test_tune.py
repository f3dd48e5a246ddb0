"""cbi.tune ranks as `cbi tune` ranks (random configurations compared with its JSON), fails as it
fails, releases the GIL and stops on Ctrl-C."""
import json
import random

import pytest

import cbi
from cli_run import as_keywords, cli
from long_runs import assert_ctrl_c_stops, assert_gil_released


def without_context(doc):
    doc = dict(doc)
    doc.pop("context", None)
    return doc


def random_tune(rng):
    c = {"workload": rng.choice(["stencil", "matmul"]), "size": rng.choice([64, 96, 128]),
         "device": rng.choice(["h100", "a100", "rtx2080super"]), "block": rng.choice([64, 128, 256]),
         "orders": rng.sample(["linear", "column:4", "column:8", "column:32", "column:128",
                               "tile:8", "zigzag:32", "tile:32x8"], rng.choice([2, 3, 5, 6])),
         "jobs": rng.choice([1, 2])}
    search = rng.choice(["staged", "full", None])
    if search:
        c["search"] = search
    if search != "full" and rng.random() < 0.5:
        c["finalists"] = rng.choice([1, 2, 3])
    if search == "full" and rng.random() < 0.5:
        c["sample_sms"] = 2
    if search != "full" and c["device"] == "h100" and rng.random() < 0.5:
        c["final_sms"] = 33  # stage two on 33 of the H100's 132 SMs
    return c


@pytest.mark.parametrize("seed", range(6))
def test_tune_equals_the_cli_on_random_configurations(seed):
    c = random_tune(random.Random(300 + seed))
    rc, out, err = cli("tune", **c)
    assert rc == 0, err
    python = cbi.tune(**c)
    assert without_context(python) == without_context(json.loads(out))
    ranking = python["ranking"]
    assert [row["rank"] for row in ranking] == list(range(1, len(ranking) + 1))
    assert python["meta"]["winner"] == ranking[0]["order"]


def test_tune_of_a_tiled_kernel_ranks_block_orders_as_the_cli():
    # jobs fixed: its default takes the cores idle at the moment, which the two calls may see differ
    c = {"kernel": "sgemm-tiled", "size": 256, "block_order": ["linear", "column:2", "tile:1x8"],
         "jobs": 1}
    rc, out, err = cli("tune", **c)
    assert rc == 0, err
    python = cbi.tune(**c)
    assert without_context(python) == without_context(json.loads(out))
    assert {row["block_order"] for row in python["ranking"]} == {"linear", "column:2", "tile:1x8"}


def test_default_orders_drop_those_that_map_alike_and_say_so():
    # jobs fixed: its default takes the cores idle at the moment, which two calls may see differ
    # (the module and the command once took 1 and 2 on a busy machine).
    python = cbi.tune(size=64, search="full", sample_sms=2, jobs=1)
    rc, out, err = cli("tune", size=64, search="full", sample_sms=2, jobs=1)
    assert rc == 0, err
    assert without_context(python) == without_context(json.loads(out))
    # column:64 and wider map as linear on a 64-wide grid: not simulated, named in the notes.
    assert "column:64" not in {row["order"] for row in python["ranking"]}
    assert any(n.startswith("column:64 maps as linear") for n in python["notes"])


def test_jobs_above_the_cores_is_said_once_accepted_as_the_call_spells_it(capfd):
    # The notice named --jobs, and a call refused for another keyword printed it before raising.
    import os
    above = os.cpu_count() + 1
    t = cbi.tune(size=32, orders="linear,column:4", search="full", jobs=above)
    assert t["meta"]["jobs"] == os.cpu_count()
    err = capfd.readouterr().err
    assert f"jobs={above} is more than the {os.cpu_count()} cores here" in err, err
    assert "--jobs" not in err, err
    with pytest.raises(ValueError, match=r"^final_sms: "):
        cbi.tune(size=32, orders="linear,column:4", final_sms=7, jobs=above)
    assert capfd.readouterr().err == ""


def test_ties_are_a_list_of_order_names():
    # linear, column:16 and column:8 of a 64x64 matmul are within 13.7% of each other on the h100.
    t = cbi.tune(workload="matmul", size=64, search="full", jobs=1,
                 orders=["linear", "column:4", "column:8", "column:16"])
    tied = t["meta"]["indistinguishable_by_the_model"]
    assert tied == [row["order"] for row in t["ranking"] if row["tie_group"] == 1]
    assert len(tied) > 1 and tied[0] == t["meta"]["winner"]


@pytest.mark.parametrize("options", [
    {"search": "greedy"},
    {"sample_sms": 0, "search": "staged"},
    {"search": "full", "finalists": 2},
    {"kernel": "sgemm-tiled", "size": 256, "orders": "linear"},
    {"orders": "diagonal"},
    {"sample_sms": 7},
])
def test_errors_are_value_errors_with_the_cli_message(options):
    rc, _, err = cli("tune", **options)
    assert rc == 2, err
    message = err.strip().split("cbi tune: ", 1)[1]
    with pytest.raises(ValueError) as raised:
        cbi.tune(**options)
    assert str(raised.value) == as_keywords(message)


def test_preset_and_own_workloads_are_refused():
    with pytest.raises(ValueError, match=r"^preset: is not an option of cbi tune"):
        cbi.tune(preset="table3.1")
    import numpy as np
    mine = cbi.Workload(np.zeros((4, 4, 1), dtype=np.uint64))
    with pytest.raises(ValueError, match=r"^workload: cbi.tune ranks the thread orders"):
        cbi.tune(workload=mine)


LONG = {"workload": "matmul", "size": 2048, "search": "full", "orders": ["linear", "column:32"]}


def test_ctrl_c_stops_a_long_tune():
    # two full-device replays of a 2048^2 matmul: far more than 0.5 s
    assert_ctrl_c_stops(lambda: cbi.tune(**LONG))


def test_the_gil_is_released_while_tuning():
    assert_gil_released(lambda: cbi.tune(workload="matmul", size=512, search="full",
                                         orders=["linear", "column:32"]))
