#!/usr/bin/env bash
# The test command (README, "Two commands"): on a fresh Debian machine, as root or as a user with
# sudo, in the Python environment it is run with (a virtual environment is best).
#
#   tools/test.sh [pytest args]         all three steps below, then pytest with the arguments
#   tools/test.sh chromium              1. Debian's chromium, for the browser tests (tests/web), when
#                                          missing: apt-get update, then apt-get install (through
#                                          sudo when not root)
#   tools/test.sh install [PACKAGE]     2. the package with its test extra, once: PACKAGE is a wheel
#                                          or a source folder (default: this checkout, which pip
#                                          compiles: about a minute on two cores)
#   tools/test.sh pytest [pytest args]  3. the suite, against the installed package
#
# .ci/run runs the steps one by one, with work of its own between them.
set -euo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-$(command -v python || command -v python3 || echo python3)}"
step() { echo "== $* (at ${SECONDS} s)"; }

install_chromium() {
  # (a function named chromium would be what `command -v chromium` finds)
  if command -v chromium >/dev/null; then
    return 0
  fi
  local sudo_=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "tools/test.sh: the browser tests need Debian's chromium: install it as root" \
           "(apt-get update && apt-get install -y chromium), or install sudo" >&2
      return 1
    }
    sudo_="sudo"
  fi
  command -v apt-get >/dev/null || {
    echo "tools/test.sh: no apt-get here: install Chromium (the browser tests run it as 'chromium')" >&2
    return 1
  }
  step "apt-get install chromium (the browser tests drive it)"
  $sudo_ apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq chromium
}

install_package() {
  local package="${1:-.}" what=""
  case "$package" in
    *.whl) [ -f "$package" ] || { echo "tools/test.sh: no wheel $package" >&2; return 1; } ;;
    *) [ -d "$package" ] || { echo "tools/test.sh: $package is neither a wheel nor a folder" >&2; return 1; }
       what=" (pip compiles the C++ core: about a minute on two cores, silently)" ;;
  esac
  # A mathhammer already installed at the same version would make pip keep it ("Requirement
  # already satisfied") and the suite would test the old files: it goes first.
  step "pip uninstall mathhammer (whatever is installed), then pip install \"$package[test]\"$what"
  "$python" -m pip uninstall --quiet --yes mathhammer 2>/dev/null || true
  "$python" -m pip install --quiet "$package[test]"
  "$python" -c 'import mathhammer; print("installed:", mathhammer.__version__, "in", mathhammer.__file__)'
}

run_pytest() {
  step "pytest"
  "$python" -m pytest "$@"
}

case "${1:-}" in
  chromium) install_chromium ;;
  install) shift; install_package "$@" ;;
  pytest) shift; run_pytest "$@" ;;
  *)
    install_chromium
    install_package .
    run_pytest "$@"
    ;;
esac
