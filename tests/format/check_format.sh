#!/usr/bin/env bash
# Fails when a C++/CUDA source under ROOT differs from what clang-format makes of it (the
# repository's .clang-format, Debian 12's clang-format 14, as experiments/setup.sh installs).
# Usage: check_format.sh ROOT [EXCLUDED_PREFIX ...]
# Fix: clang-format -i $(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
set -euo pipefail
root=$1
shift
if ! command -v clang-format >/dev/null; then
  echo "check_format.sh: clang-format not found (experiments/setup.sh installs it)" >&2
  exit 1
fi
cd "$root"
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
  mapfile -t files < <(git ls-files -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
else
  mapfile -t files < <(find . -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) | sed 's|^\./||' | sort)
fi
checked=()
for f in "${files[@]}"; do
  skip=0
  for prefix in "$@"; do
    if [[ "$f" == "$prefix"* ]]; then skip=1; fi
  done
  if [ $skip -eq 0 ] && [ -f "$f" ]; then checked+=("$f"); fi
done
if [ ${#checked[@]} -eq 0 ]; then
  echo "check_format.sh: no C++ or CUDA source under $root" >&2
  exit 1
fi
bad=0
for f in "${checked[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
if [ $bad -ne 0 ]; then
  echo "$bad of ${#checked[@]} files are not clang-formatted"
  exit 1
fi
echo "${#checked[@]} files clang-formatted"
