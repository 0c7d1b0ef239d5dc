#!/usr/bin/env bash
# Regenerates the .pyi stubs of mathhammer._core (python/mathhammer/_core/) with pybind11-stubgen.
# Builds nothing: it imports the dev build (tools/dev_build.sh) when there is one, else the
# installed package. Usage: tools/stubs.sh [output folder, default python/mathhammer/_core]
# PYTHON picks the interpreter (default: python).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-python/mathhammer/_core}"
if compgen -G "python/mathhammer/_core*.so" >/dev/null; then
  export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"${PYTHON:-python}" -m pybind11_stubgen mathhammer._core --exit-code -o "$tmp" >/dev/null
rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -r "$tmp/mathhammer/_core" "$out"
