"""The column width against the L1 hit rate and the miss-ratio curves of linear and column:32 for a
9x9 stencil, and the spatial-temporal diagram of column:8 on a small grid, drawn with matplotlib from
cbi.simulate, cbi.mrc and cbi.diagram_cells:

    PYTHONPATH=build/python python3 examples/python/orders.py -o orders.png   # from the build tree
    python3 examples/python/orders.py --size 2048 -o orders.png              # after cmake --install
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.colors  # noqa: E402
import matplotlib.patches  # noqa: E402
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

    fig, (left, right, cells_ax) = plt.subplots(1, 3, figsize=(15, 4))
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

    # cbi diagram's cells (the thesis's spatial-temporal diagram, §3.2) for column:8 on a small
    # grid: one column per thread, one row per cache line, each cell's state as the command draws it.
    cells = cbi.diagram_cells(size=48, stencil="9x9", line_bytes=128, cache_bytes="2KiB", ways=4,
                              order="column:8", granularity="thread")
    colours = {"not_cached": "white", "in_l1": "#c6dbef", "hit": "#31a354", "miss": "#de2d26"}
    cmap = matplotlib.colors.ListedColormap([colours.get(n, "grey") for n in cells["states"]])
    cells_ax.imshow(cells["state"], aspect="auto", interpolation="nearest", cmap=cmap,
                    vmin=-0.5, vmax=len(cells["states"]) - 0.5,
                    extent=(0, cells["steps"], cells["lines"], 0))
    cells_ax.set_xlabel(f"thread (binned {cells['time_bin']} a column)")
    cells_ax.set_ylabel("cache line (128 B)")
    cells_ax.set_title("column:8, 48x48, 2 KiB 4-way L1 (cbi.diagram_cells)", fontsize=10)
    cells_ax.legend(handles=[matplotlib.patches.Patch(color=c, label=n.replace("_", " "))
                             for n, c in colours.items() if n != "not_cached"],
                    loc="lower right", fontsize=8)

    fig.suptitle(f"9x9 stencil on {args.size}x{args.size} floats, clamped edges "
                 "(cbi.simulate, cbi.mrc)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
