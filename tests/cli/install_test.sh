#!/bin/sh
# `cmake --install` puts cbi and cbi-viz on a prefix, and the installed cbi finds the installed
# cbi-viz (the folder of its own binary), from any working directory and through PATH.
# usage: install_test.sh BUILD_DIR
set -eu
build=$1
prefix=$(mktemp -d /tmp/cbi_install_XXXXXX)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/cbi"
cd "$prefix"
PATH="$prefix/bin:$PATH"
cbi --version | grep -q '^cbi .*commit '
cbi simulate --order column:8 --format csv | grep -q ',column:8,exact,L1,'
if [ -x "$build/bin/cbi-viz" ]; then
  test -x "$prefix/bin/cbi-viz"
  cbi diagram --preset fig3.1 -o "$prefix/fig.png" >/dev/null
  test -s "$prefix/fig.png"
fi
echo "installed and ran from $prefix"
