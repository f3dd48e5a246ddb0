#!/usr/bin/env bash
# Lead's device call 3 (2026-11-23): GPU model against the H100 on configurations nobody tuned on
# (sizes 1536 / 3000², blocks 128 and 512), cbi sweep --backend sim+gpu --metrics.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); bin=$here/bin; out=${OUT:?}
{
echo "commit $(cat $here/COMMIT)  date $(date -u +%FT%TZ)"
o=linear,column:8,column:32,column:128,zigzag:32,tile:16
set -x
timeout 250 $bin/cbi sweep --backend sim+gpu --metrics --kernel matmul --size 1536 --block 128,512 --order $o --jobs 16 -o "$out/untuned-matmul1536.csv"
timeout 280 $bin/cbi sweep --backend sim+gpu --metrics --kernel stencil --stencil 9x9 --size 3000 --block 128,512 --order $o --jobs 16 -o "$out/untuned-stencil3000.csv"
set +x
echo "done $(date -u +%T)"
} > "$out/run3.log" 2>&1
tail -8 "$out/run3.log"
