"""cbi.diagram_cells gives the cells that `cbi diagram` draws and writes with --csv, for the same
options: sequential (binned and not, one and two levels, several panels) and the GPU model."""
import csv
import io
import os
import random
import subprocess

import numpy as np
import pytest

import cbi
from long_runs import assert_ctrl_c_stops, assert_gil_released

CBI = os.path.join(os.environ.get("CBI_BIN", "build/bin"), "cbi")

pytestmark = pytest.mark.skipif(not hasattr(cbi, "diagram_cells"),
                                reason="the module was built without viz (CBI_BUILD_VIZ=OFF)")


def cli_cells(tmp_path, **options):
    argv = [CBI, "diagram", "-o", str(tmp_path / "d.png"), "--csv", "-"]
    for key, value in options.items():
        for item in value if isinstance(value, list) else [value]:
            argv += ["--" + key.replace("_", "-")] + ([] if item is True else [str(item)])
    run = subprocess.run(argv, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return list(csv.DictReader(io.StringIO(run.stdout)))


def assert_same_cells(panels, rows):
    """Every cell the CSV lists (those not 'not cached') has the state, accesses and misses of the
    arrays, and every other cell of the arrays is not cached."""
    listed = 0
    for p, d in enumerate(panels):
        state, names = d["state"], d["states"]
        assert state.shape == d["accesses"].shape == d["misses"].shape[1:]
        assert d["misses"].shape[0] == d["levels"]
        mine = [r for r in rows if int(r["panel"]) == p]
        assert all(r["order"] == d["order"] for r in mine)
        for r in mine:
            row, col = int(r["row"]), int(r["col"])
            assert names[state[row, col]] == r["state"], (row, col)
            assert d["accesses"][row, col] == int(r["accesses"])
            for k in range(d["levels"]):
                assert d["misses"][k, row, col] == int(r[f"l{k + 1}_misses"])
            assert int(r["first_step"]) == col * d["time_bin"]
            assert int(r["first_line"]) == row * d["line_bin"]
        assert len(mine) == np.count_nonzero(state)  # state 0: not cached, not in the CSV
        listed += len(mine)
    assert listed == len(rows)


def random_diagram(rng):
    c = {"size": rng.choice([16, 24, 32, 48]), "stencil": rng.choice(["3x3", "5x5"]),
         "order": rng.choice(["linear", "column:4", "tile:4", "zigzag:8"]),
         "line_bytes": rng.choice([16, 32, 64]), "granularity": rng.choice(["exact", "thread"])}
    if rng.random() < 0.5:
        c["cache_bytes"] = c["line_bytes"] * rng.choice([8, 16, 32])
        c["ways"] = rng.choice([0, 2, 4])
    else:
        c["level"] = [f"size={c['line_bytes'] * 8},line={c['line_bytes']}",
                      f"size={c['line_bytes'] * 64},line={c['line_bytes']}"]
        del c["line_bytes"]
    if rng.random() < 0.4:
        c["max_px"] = rng.choice([64, 128])  # binned
    return c


@pytest.mark.parametrize("seed", range(8))
def test_cells_equal_the_cli_csv_on_random_configurations(tmp_path, seed):
    c = random_diagram(random.Random(400 + seed))
    d = cbi.diagram_cells(**c)
    assert isinstance(d, dict) and d["state"].dtype == np.uint8
    assert_same_cells([d], cli_cells(tmp_path, **c))


def test_several_orders_are_panels_at_one_scale(tmp_path):
    c = {"size": 64, "stencil": "5x5", "line_bytes": 64, "cache_bytes": "2KiB", "ways": 4,
         "order": ["linear", "column:8", "tile:8"], "max_px": 256}
    panels = cbi.diagram_cells(**c)
    assert [p["order"] for p in panels] == ["linear", "column:8", "tile:8"]
    assert len({p["state"].shape for p in panels}) == 1
    assert panels[0]["time_bin"] > 1  # 64*64*25 accesses do not fit 256 columns
    assert_same_cells(panels, cli_cells(tmp_path, **c))


def test_the_gpu_model_panel_equals_the_cli(tmp_path):
    c = {"model": "gpu", "device": "h100", "block": 256, "workload": "matmul", "size": 128,
         "order": "column:32", "sm": 1}
    d = cbi.diagram_cells(**c)
    assert d["sm"] == 1 and d["levels"] == 2
    assert_same_cells([d], cli_cells(tmp_path, **c))


def test_a_hand_counted_grid():
    # 8 threads of a 1x1 stencil on an 8x1 float grid, 16-byte lines, exact granularity: thread x
    # reads element x, so lines 0 and 1 (4 floats each) are fetched by threads 0 and 4 and hit by
    # the three after each; one column per access, one row per line.
    d = cbi.diagram_cells(size=(8, 1), stencil="1x1", line_bytes=16, cache_bytes=64, ways=0)
    assert d["state"].shape == (2, 8)
    hit, miss = d["states"].index("hit"), d["states"].index("miss")
    assert [d["state"][x // 4, x] for x in range(8)] == [miss, hit, hit, hit] * 2
    assert d["accesses"].sum() == 8 and d["misses"][0].sum() == 2


def test_errors_are_value_errors_naming_the_option():
    with pytest.raises(ValueError, match=r"^order: "):
        cbi.diagram_cells(order="diagonal")
    # The command line's output option, refused saying so (it was "is not an option").
    with pytest.raises(ValueError, match=r"^output: is cbi diagram's, for the text or file"):
        cbi.diagram_cells(output="x.png")


def test_ctrl_c_stops_a_long_diagram():
    # a 8192^2 9x9 stencil: 5.4 G accesses to bin
    assert_ctrl_c_stops(lambda: cbi.diagram_cells(size=8192, stencil="9x9", line_bytes=128,
                                                  cache_bytes="32KiB", ways=8))


def test_the_gil_is_released_while_building_cells():
    assert_gil_released(lambda: cbi.diagram_cells(size=1024, stencil="9x9", line_bytes=128,
                                                  cache_bytes="32KiB", ways=8))
