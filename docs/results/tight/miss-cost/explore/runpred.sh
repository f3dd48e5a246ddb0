#!/bin/bash
# The sampled runs of v1v2.py (12 SMs, h200) with cbi built from main 8edd2e3 + explore-counters.patch.
bin=${BIN:-/work/wt-coord/build/bin/cbi}
S=${S:-12}
run() { local l=$1; shift; [ -s pred-v1v2/$l.json ] || $bin simulate --model gpu --device h200 --sample-sms $S --format json "$@" > pred-v1v2/$l.json 2>/dev/null; }
for o in linear column:4 column:8 column:16 column:32 column:64 column:128 column:256 column:512 column:1024 tile:16 tile:32x8 zigzag:32 zigzag:64; do
  run P10-$o --workload stencil --size 4864x2048 --stencil 9x9 --type double --block 288 --order $o; done
for o in linear column:8 column:32 column:256 tile:16; do
  run P8-$o --workload stencil --size 3200x3712 --stencil 5x5 --type double --block 192 --order $o; done
for o in linear column:32 column:256; do
  run P11-$o --workload stencil --size 3456x3072 --stencil 11x11 --type float --block 224 --order $o; done
for o in linear column:8 column:32 column:128 tile:16 tile:32x8; do
  run P6-$o --workload matmul --size 1792x768 --depth 832 --type half --block 96 --order $o; done
