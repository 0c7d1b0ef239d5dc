#!/usr/bin/env bash
# Where the build's time goes: a clean Release build in a scratch folder with every compile
# wrapped in /usr/bin/time, then a re-link alone. Prints the CPU seconds of each translation unit
# (largest first), the compile total and the link. CPU time, not wall time, so that a busy machine
# still gives comparable figures.  Usage: tools/build_times.sh [extra cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cat >"$dir/launch" <<'WRAP'
#!/usr/bin/env bash
out=$(printf '%s\n' "$@" | grep -A1 '^-o$' | tail -1)
exec /usr/bin/time -f "%U %S $out" -a -o "$MATHHAMMER_TIMES" "$@"
WRAP
chmod +x "$dir/launch"
export MATHHAMMER_TIMES="$dir/times"
cmake -S . -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -Dpybind11_DIR="$(python -m pybind11 --cmakedir)" -DMATHHAMMER_DEV_OUTPUT="$dir/out" \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$dir/launch" "$@" >/dev/null
start=$(date +%s)
ninja -C "$dir/build" >/dev/null
wall=$(( $(date +%s) - start ))
rm "$dir"/out/_core*.so
link=$( { /usr/bin/time -f "%U %S" ninja -C "$dir/build" >/dev/null; } 2>&1 | awk '{print $1 + $2}')
awk '{printf "%7.2f s  %s\n", $1 + $2, $3}' "$dir/times" | sort -rn
awk -v link="$link" -v wall="$wall" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
  '{cpu += $1 + $2} END {printf "compile %.1f s CPU, link %.1f s CPU; build %d s wall (load %s)\n", cpu, link, wall, load}' \
  "$dir/times"
