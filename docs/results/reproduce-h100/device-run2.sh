#!/usr/bin/env bash
# Lead's device call 2 (2026-11-23): the whole `cbi reproduce` on the H100. rep/ already holds the six
# gpu-fig5.1a/b(-half/-double) CSVs measured in call 1 (17:50-17:52 UTC, commit e5950fe, same kernels);
# --resume skips them. Everything is tarred at the end so nothing is lost to the file-count limit.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); bin=$here/bin; out=${OUT:?}
cp -r "$here/rep" "$out/rep"
{
echo "commit $(cat $here/COMMIT)  date $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
CBI_BIN=$bin timeout 60 $bin/test_gpu_cli --gtest_brief=1 2>&1 | tail -3
echo "=== reproduce $(date -u +%T)"
( cd "$out" && timeout 520 $bin/cbi reproduce -o rep --jobs 16 )
echo "reproduce exit $? $(date -u +%T)"
ls -la "$out/rep"
} > "$out/run2.log" 2>&1
tar czf "$out/rep.tgz" -C "$out" rep run2.log && rm -rf "$out/rep"
tail -40 "$out/run2.log"
