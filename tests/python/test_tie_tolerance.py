"""cbi tune's tie tolerance is the one its data give: docs/results/tight/tie_tolerance.py, run on
the sets named in tie-tolerance.args, against tie_tolerance_pct in cbi.tune's result for each
family (and the mean over all pairs for a family without measurements)."""
import math
import os
import subprocess
import sys

import pytest

import cbi

TIGHT = os.path.join(os.environ.get("CBI_SOURCE", os.path.join(os.path.dirname(__file__), "..", "..")),
                     "docs", "results", "tight")

# One small configuration per family: the tolerance does not depend on it.
FAMILIES = {
    "matmul": dict(workload="matmul", size=64, depth=16, orders="linear", block=64),
    "stencil": dict(workload="stencil", size=64, orders="linear", block=64),
    "sgemm-tiled": dict(kernel="sgemm-tiled", size=256, block_order="linear"),
    "stencil-smem": dict(kernel="stencil-smem", size=256, block_order="linear"),
    "all": dict(workload="stencil3d", size="16x16x4", orders="linear", block=64),
}


@pytest.fixture(scope="module")
def table():
    args = open(os.path.join(TIGHT, "tie-tolerance.args")).read().split()
    out = subprocess.run([sys.executable, os.path.join(TIGHT, "tie_tolerance.py"), *args], cwd=TIGHT,
                         check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = dict(groups=int(cells[1]), pairs=int(cells[3]), ln_error=float(cells[4]))
    return rows


def test_every_family_is_measured(table):
    assert set(table) == set(FAMILIES)
    for family, row in table.items():
        assert row["pairs"] > 0 and 0 < row["ln_error"] < 1, (family, row)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_tune_uses_the_measured_tolerance(table, family):
    got = cbi.tune(**FAMILIES[family])["meta"]["tie_tolerance_pct"]
    # The table rounds to 4 decimals of a log ratio.
    assert math.log1p(got / 100) == pytest.approx(table[family]["ln_error"], abs=6e-5), family
