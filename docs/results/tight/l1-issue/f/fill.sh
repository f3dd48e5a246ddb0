set -u
./cbi-before sweep --model gpu --device h200 --jobs 2 --kernel matmul --size 960x1856 --depth 1056 --type half --block 64 --order column:4,column:8 --output /tmp/fb/fill-F7.csv 2>/tmp/fb/fill-F7.log
./cbi-before sweep --model gpu --device h200 --jobs 2 --kernel stencil --stencil 11x11 --size 2816x2304 --type half --block 320 --order column:4,column:8,column:16,tile:16 --output /tmp/fb/fill-F9.csv 2>/tmp/fb/fill-F9.log
./cbi-before sweep --model gpu --device h200 --jobs 2 --kernel stencil --stencil 7x7 --size 2304x2944 --type double --block 896 --order linear,column:4,column:8,column:256,column:512,column:1024 --output /tmp/fb/fill-F10.csv 2>/tmp/fb/fill-F10.log
echo done > /tmp/fb/fill.done
