#!/usr/bin/env bash
# Renders the README's diagrams into docs/figures/ with cbi itself (no hand-edited images).
# usage: viz/scripts/render_figures.sh [BIN_DIR]   (default: build/bin of this checkout)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/build/bin}"
out="$root/docs/figures"
mkdir -p "$out"
cbi() { "$bin/cbi" "$@"; }

# One per preset that draws a thesis table or figure (cbi presets lists each in full); table3.1
# draws its three orders at one scale (stacked by --layout auto), each with its stats.
for preset in table3.1 fig3.1 fig3.2a fig3.2b fig3.3 fig4.4 fig4.6 tiling4; do
  cbi diagram --preset "$preset" -o "$out/$preset.png"
done
# Table 3.1 with tiles beside the column of 4.
cbi diagram --preset table3.1 --order linear --order column:4 --order tile:4 \
  -o "$out/stencil-orders.png"
# The two matmul orders of Table 3.2.
cbi diagram --preset table3.2 --order linear --order column:4 -o "$out/matmul-orders.png"
# Two levels: cells coloured by the level that served each access; warps marked. Thread
# granularity (one column per thread), as the thesis draws.
cbi diagram --size 16 --stencil 5x5 --level lines=8,line=32 --level lines=32,line=64 --warp 32 \
  --granularity thread --order linear --order column:8 -o "$out/two-levels.png"
# A 4096^2 9x9 stencil, binned (the bin size is in the subtitle); thread granularity, so the
# rates it quotes are per thread-line.
cbi diagram --size 4096 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB --granularity thread \
  --order linear --order column:64 -o "$out/stencil-4096-binned.png"
# cbi plot on a simulator sweep: column widths against linear order, and hit rate over size.
sweep="$(mktemp --suffix=.csv)"
trap 'rm -f "$sweep"' EXIT
cbi sweep --size 256,512,1024,2048 --stencil 9x9 --cache l1-64k \
  --order linear,column:8,column:16,column:32,column:64,tile:16 -o "$sweep"
cbi plot heatmap --input "$sweep" --output "$out/plot-heatmap.png" --y size --value sim_l1_misses \
  --title "Simulated L1 misses relative to linear (9x9 stencil, 64 KiB L1)"
cbi plot lines --input "$sweep" --output "$out/plot-lines.png" --y sim_l1_hit_pct \
  --title "Simulated L1 hit rate (9x9 stencil, 64 KiB L1)"
echo "figures in $out"
