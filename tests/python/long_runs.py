"""Checks for long runs of the module's functions: Ctrl-C stops them, and the GIL is released while
they run (tests of cbi.simulate, cbi.tune and cbi.diagram_cells share them)."""
import _thread
import threading
import time

import pytest


def assert_ctrl_c_stops(run, within_s=10, after_s=0.5):
    """run() lasts far longer than after_s; an interrupt then raises KeyboardInterrupt soon."""
    timer = threading.Timer(after_s, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        run()
    timer.cancel()
    assert time.monotonic() - start < within_s


def assert_gil_released(run):
    """Another Python thread keeps running while run() does."""
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    start = time.monotonic()
    run()
    elapsed = time.monotonic() - start
    done.set()
    ticker.join()
    assert elapsed > 0.1  # long enough for the other thread to tick
    assert len(ticks) >= 5  # the other thread ran during the run
