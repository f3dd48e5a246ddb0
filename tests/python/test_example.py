"""examples/python/orders.py runs headless (Agg) and writes a PNG with something drawn in it: ctest
runs it as python_example, writing into the build tree (CBI_EXAMPLE_PNG)."""
import os
import subprocess
import sys

import matplotlib.image
import numpy as np

SOURCE = os.environ.get("CBI_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))


def test_the_example_draws_its_png(tmp_path):
    png = os.environ.get("CBI_EXAMPLE_PNG", str(tmp_path / "orders.png"))
    os.makedirs(os.path.dirname(png), exist_ok=True)
    if os.path.exists(png):
        os.remove(png)
    run = subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "python", "orders.py"),
                          "--size", "256", "-o", png], capture_output=True, text=True,
                         env=dict(os.environ, MPLBACKEND="Agg"))
    assert run.returncode == 0, run.stderr
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    image = matplotlib.image.imread(png)
    assert image.shape[0] >= 300 and image.shape[1] >= 1000  # three panels side by side
    rgb = image[..., :3].reshape(-1, 3)
    drawn = np.any(rgb < 0.95, axis=1).mean()  # not white: axes, lines, text and the cells
    assert 0.05 < drawn < 0.9, drawn
    assert len(np.unique((rgb * 255).astype(np.uint8), axis=0)) > 50  # a colour map, not a blank
