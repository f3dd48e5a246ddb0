"""cbi.Order: the same remap as the kernels and the simulator, vectorised over NumPy arrays."""
import numpy as np
import pytest

import cbi


def test_column_matches_the_thesis_example():
    # remap/orders/column.hpp: column:4 on 16x16 maps 5 -> (1,1), 64 -> (4,0); zigzag:4 5 -> (2,1).
    x, y = cbi.Order("column:4").map(np.array([5, 64]), (16, 16))
    assert x.tolist() == [1, 4] and y.tolist() == [1, 0]
    x, y = cbi.Order("zigzag:4").map(np.array([5]), 16)
    assert (x[0], y[0]) == (2, 1)


@pytest.mark.parametrize("text", ["linear", "column:1", "column:7", "column:32", "zigzag:5",
                                  "tile:4", "tile:3x5", "column:1000"])
@pytest.mark.parametrize("shape", [(16, 16), (37, 11), (1, 9), (100, 3)])
def test_every_order_is_a_bijection_and_inverse_undoes_map(text, shape):
    w, h = shape
    order = cbi.Order(text)
    ids = np.arange(w * h)
    x, y = order.map(ids, shape)
    assert x.min() >= 0 and x.max() < w and y.min() >= 0 and y.max() < h
    assert len(set(zip(x.tolist(), y.tolist()))) == w * h  # every task exactly once
    assert np.array_equal(order.inverse(x, y, shape), ids)


def test_linear_is_row_major_and_arrays_keep_their_shape():
    ids = np.arange(12).reshape(3, 4)
    x, y = cbi.Order("linear").map(ids, (4, 3))
    assert x.shape == (3, 4)
    assert np.array_equal(x, ids % 4) and np.array_equal(y, ids // 4)


def test_spelling_round_trips():
    for text in ["linear", "column:32", "zigzag:8", "tile:16x4"]:
        assert str(cbi.Order(text)) == text
        assert cbi.Order(str(cbi.Order(text))) == cbi.Order(text)
    assert cbi.Order("tile:4").name == "tile"


def test_bad_values_are_value_errors_naming_the_argument():
    with pytest.raises(ValueError, match=r"^order: unknown order 'diagonal'; allowed: linear"):
        cbi.Order("diagonal")
    with pytest.raises(ValueError, match=r"^order: 'column:0' has a bad parameter; allowed: column:W with "
                       r"positive integers"):
        cbi.Order("column:0")
    with pytest.raises(ValueError, match=r"thread id 16 at index 1 is outside the grid"):
        cbi.Order("linear").map(np.array([0, 16]), (4, 4))
    # Thread ids are whole numbers: floats are refused, not truncated by NumPy's cast.
    with pytest.raises(ValueError, match=r"^i: is an array of float64; allowed: an integer"):
        cbi.Order("linear").map(np.arange(4) + 0.5, (4, 4))
    with pytest.raises(ValueError, match=r"^x: is an array of float64"):
        cbi.Order("linear").inverse(np.array([0.5]), np.array([0]), (4, 4))
    assert cbi.Order("column:2").map([0, 1, 2], (4, 4))[0].tolist() == [0, 1, 0]
    with pytest.raises(ValueError, match=r"^shape: "):
        cbi.Order("linear").map(np.arange(3), (0, 4))
