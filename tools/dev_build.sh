#!/usr/bin/env bash
# Fast development build: compiles mathhammer._core next to the Python sources so that
# `PYTHONPATH=python pytest` runs against the working tree without reinstalling.
set -euo pipefail
cd "$(dirname "$0")/.."
build_type="${BUILD_TYPE:-Release}"
cmake -S . -B build/dev -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
  -Dpybind11_DIR="$(python -m pybind11 --cmakedir)" \
  -DMATHHAMMER_DEV_OUTPUT="$PWD/python/mathhammer" "$@" >/dev/null
ninja -C build/dev
