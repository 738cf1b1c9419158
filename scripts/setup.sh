#!/usr/bin/env bash
# warpsim on a fresh Debian machine: install what is missing, build, then
#   start  run the main job (the GUI where a display exists, else the terminal walkthrough)
#   test   build twice (warnings as errors; ASan+UBSan) and pass the whole test suite
set -euo pipefail

mode=${1:-start}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# clang: the corpus also runs with WARPSIM_CXX=clang++ (ctest corpus_tests_clang).
packages=(g++ clang cmake ninja-build pkg-config binutils valgrind doctest-dev
          nlohmann-json3-dev zlib1g-dev libcli11-dev)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

configure_and_build() {  # dir, extra cmake args...
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

case "$mode" in
  start)
    install_missing
    configure_and_build "$root/build/release" -DCMAKE_BUILD_TYPE=Release
    exec "$root/build/release/cli/warpsim" walkthrough
    ;;
  test)
    install_missing
    configure_and_build "$root/build/release" -DCMAKE_BUILD_TYPE=Release -DWARPSIM_WERROR=ON
    ctest --test-dir "$root/build/release" --output-on-failure -j "$jobs"
    configure_and_build "$root/build/asan" -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON \
      -DWARPSIM_WERROR=ON -DWARPSIM_BUILD_BENCH=OFF
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --test-dir "$root/build/asan" --output-on-failure -j "$jobs"
    ;;
  *)
    echo "usage: scripts/setup.sh start|test" >&2
    exit 2
    ;;
esac
