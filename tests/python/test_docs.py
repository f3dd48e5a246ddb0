"""docs/library.md's Python examples run as written."""
import os
import re

import pytest

DOC = os.path.join(os.environ.get("CBI_SOURCE", os.path.join(os.path.dirname(__file__), "..", "..")),
                   "docs", "library.md")


def python_blocks():
    with open(DOC) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


def test_the_doc_has_python_examples():
    assert len(python_blocks()) >= 1


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_each_python_example_runs(index):
    exec(compile(python_blocks()[index], f"docs/library.md python block {index}", "exec"), {})
