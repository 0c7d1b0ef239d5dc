#!/usr/bin/env bash
# Runs the test suite (or the pytest arguments given) against a build of the C++ core with
# AddressSanitizer + UndefinedBehaviorSanitizer. The sanitized package is assembled in
# build/asan/python so that the normal development build is left alone.
#
#   tools/sanitize.sh [pytest args]        build, then test
#   tools/sanitize.sh build                build only (CI starts it while the main pass runs)
#   tools/sanitize.sh test [pytest args]   test the build made before
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/build/asan/python"
step="all"
case "${1:-}" in
  build|test) step="$1"; shift ;;
esac

if [ "$step" != "test" ]; then
  rm -rf "$out" && mkdir -p "$out"
  cp -r python/mathhammer "$out/"
  rm -f "$out"/mathhammer/_core*.so
  # -O1 as the sanitizers recommend, line tables only (-g1): a third less compile time than -O2 -g,
  # and the reports still name file and line
  cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMATHHAMMER_SANITIZE=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -Dpybind11_DIR="$(python -m pybind11 --cmakedir)" -DMATHHAMMER_DEV_OUTPUT="$out/mathhammer" >/dev/null
  ninja -C build/asan >/dev/null
fi
[ "$step" = "build" ] && exit 0

# Python itself is not sanitized: preload the runtime, and leave leak checks to C++-only tools
# (CPython keeps its allocations until exit).
export LD_PRELOAD="$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Left out: the tests marked python_only (Python tooling, text) and dask_cluster (a cluster's worker
# processes cannot load the preloaded runtime); tests/conftest.py marks them.
export MATHHAMMER_SANITIZED=1
PYTHONPATH="$out" python -m pytest -q -p no:cacheprovider -m "not python_only and not dask_cluster" "${@:-tests}"
