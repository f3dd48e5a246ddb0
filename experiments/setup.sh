#!/usr/bin/env bash
# Installs cbi's build and test dependencies on Debian 12 from Debian packages. CUDA is expected at
# /usr/local/cuda (NVIDIA's toolkit; nvcc 13.0 is what the project is built and tested with).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(
  cmake g++ make
  libboost-program-options-dev   # CLI parsing (linked statically)
  libeigen3-dev                  # CPU reference for matmul checks
  libsfml-dev                    # diagrams, plots and the interactive viewer
  libgtest-dev googletest        # tests
  clang-format                   # the format check (ctest -R format), as CI runs it
  libbenchmark-dev               # micro-benchmarks
  libfreetype-dev fonts-dejavu-core  # headless text rendering for labelled PNGs
  zlib1g-dev                     # PNG writing in viz/
  nlohmann-json3-dev             # JSON results (cli/ printers, cbi bench)
  xvfb xauth                     # the viewer's window test runs under Xvfb
  python3-dev pybind11-dev       # the Python module `cbi` (python/), built by the same CMake
  python3-numpy                  # its arrays in and out (cbi.Order(...).map, ...)
  python3-pytest                 # its tests, run by ctest
  python3-matplotlib             # examples/python/orders.py draws its PNG with it (ctest
                                 # python_example runs it; docs/library.md shows the figure)
)
export DEBIAN_FRONTEND=noninteractive
if ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup.sh: CUDA Toolkit not found at /usr/local/cuda (install NVIDIA's CUDA 13 toolkit there)" >&2
  exit 1
fi
