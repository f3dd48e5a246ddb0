"""examples/python/orders.py runs and writes its PNG (skipped without matplotlib)."""
import os
import subprocess
import sys

import pytest

SOURCE = os.environ.get("CBI_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


def test_the_example_draws_its_png(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "orders.png"
    run = subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "python", "orders.py"),
                          "--size", "256", "-o", str(png)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10000
