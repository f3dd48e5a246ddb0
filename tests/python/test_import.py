"""`import cbi` where NumPy is missing: one ImportError at import that names NumPy and how to
install it (each call used to fail on its own with "No module named 'numpy.core'")."""
import os
import subprocess
import sys


def import_cbi_without_numpy():
    # sys.modules["numpy"] = None makes `import numpy` fail as if it were not installed.
    code = "import sys\nsys.modules['numpy'] = None\nimport cbi\nprint('imported')\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


def test_import_without_numpy_is_one_clear_import_error():
    r = import_cbi_without_numpy()
    assert r.returncode != 0, r.stdout
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: cbi needs NumPy"), r.stderr
    assert "apt-get install python3-numpy" in last, last
    assert "imported" not in r.stdout


def test_import_with_numpy_works():
    r = subprocess.run([sys.executable, "-c", "import cbi; print(cbi.__version__)"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr
