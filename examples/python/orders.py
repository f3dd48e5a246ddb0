"""The column width against the L1 hit rate, and the miss-ratio curves of linear and column:32, for a
9x9 stencil, drawn with matplotlib from cbi.simulate and cbi.mrc:

    PYTHONPATH=build/python python3 examples/python/orders.py -o orders.png   # from the build tree
    python3 examples/python/orders.py --size 2048 -o orders.png              # after cmake --install
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import cbi  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default="orders.png", help="the PNG to write")
    parser.add_argument("--size", type=int, default=1024, help="I_w = I_h (default 1024)")
    args = parser.parse_args()

    workload = dict(size=args.size, stencil="9x9", line_bytes=128)
    l1 = dict(cache_bytes="32KiB", ways=8)
    widths = [1, 2, 4, 8, 16, 32, 64, 128, 256]
    hit_pct = [cbi.simulate(order=f"column:{w}", **workload, **l1)["rows"][0]["hit_pct"]
               for w in widths]
    linear_pct = cbi.simulate(order="linear", **workload, **l1)["rows"][0]["hit_pct"]

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(widths, hit_pct, marker="o", label="column:W")
    left.axhline(linear_pct, linestyle="--", color="grey", label="linear")
    left.set_xscale("log", base=2)
    left.set_xlabel("column width W (tasks)")
    left.set_ylabel("L1 hit rate per access (%)")
    left.set_title("32 KiB 8-way LRU L1, 128 B lines")
    left.legend()

    for order in ["linear", "column:32"]:
        curve = cbi.mrc(order=order, sizes=[int(s) for s in 2 ** np.arange(0, 14)], **workload)
        right.plot(curve["capacity_bytes"] / 1024, curve["miss_pct"], marker=".", label=order)
    right.set_xscale("log", base=2)
    right.set_yscale("log")
    right.set_xlabel("fully associative LRU capacity (KiB, 128 B lines)")
    right.set_ylabel("misses per access (%)")
    right.set_title("miss-ratio curves")
    right.legend()

    fig.suptitle(f"9x9 stencil on {args.size}x{args.size} floats, clamped edges "
                 "(cbi.simulate, cbi.mrc)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
