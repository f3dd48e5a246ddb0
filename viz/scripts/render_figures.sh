#!/usr/bin/env bash
# Renders the README's diagrams into docs/figures/ with cbi itself (no hand-edited images).
# usage: viz/scripts/render_figures.sh [BIN_DIR]   (default: build/bin of this checkout)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/build/bin}"
out="$root/docs/figures"
mkdir -p "$out"
cbi() { "$bin/cbi" "$@"; }

# One per thesis figure (Table 3.1 / 3.2 parameters; see cbi diagram --help).
for preset in fig3.1 fig3.2a fig3.2b fig3.3 fig4.4 fig4.6 tiling4; do
  cbi diagram --preset "$preset" -o "$out/$preset.png"
done
# The three stencil orders side by side at one scale, each with its stats.
cbi diagram --preset fig3.1 --order linear --order column:4 --order tile:4 \
  -o "$out/stencil-orders.png"
# The two matmul orders of Table 3.2.
cbi diagram --preset fig3.3 --order linear --order column:4 -o "$out/matmul-orders.png"
# Two levels: cells coloured by the level that served each access; warps marked.
cbi diagram --size 32 --stencil 5x5 --level lines=16,line=32 --level lines=64,line=64 --warp 32 \
  --order linear --order column:8 -o "$out/two-levels.png"
# A 4096^2 9x9 stencil, binned (the bin size is in the subtitle).
cbi diagram --size 4096 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB \
  --order linear --order column:64 -o "$out/stencil-4096-binned.png"
echo "figures in $out"
