#!/usr/bin/env bash
# Runs the test suite (or the pytest arguments given) against a build of the C++ core with
# AddressSanitizer + UndefinedBehaviorSanitizer. The sanitized package is assembled in
# build/asan/python so that the normal development build is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/build/asan/python"
rm -rf "$out" && mkdir -p "$out"
cp -r python/mathhammer "$out/"
rm -f "$out"/mathhammer/_core*.so
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMATHHAMMER_SANITIZE=ON \
  -Dpybind11_DIR="$(python -m pybind11 --cmakedir)" -DMATHHAMMER_DEV_OUTPUT="$out/mathhammer" >/dev/null
ninja -C build/asan >/dev/null
# Python itself is not sanitized: preload the runtime, and leave leak checks to C++-only tools
# (CPython keeps its allocations until exit).
export LD_PRELOAD="$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Tests that only check Python tooling (type checking) or start processes of their own (a Dask
# cluster) skip themselves when this is set.
export MATHHAMMER_SANITIZED=1
PYTHONPATH="$out" python -m pytest -q -p no:cacheprovider -m "not python_only" "${@:-tests}"
