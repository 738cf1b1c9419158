#!/usr/bin/env bash
# warpsim on a fresh Debian machine: install what is missing, build, then
#   start  run the main job (the GUI where a display exists, else the terminal walkthrough)
#   test   build (no warning allowed), pass the whole test suite, then build what the suites not
#          labelled heavy or unsanitized run with ASan+UBSan and warnings as errors, and pass those
set -euo pipefail

mode=${1:-start}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# clang: the corpus also runs with WARPSIM_CXX=clang++ (ctest corpus_tests_clang).
packages=(g++ clang cmake ninja-build pkg-config binutils valgrind doctest-dev
          nlohmann-json3-dev zlib1g-dev libcli11-dev)
# The GUI (warpsim-gui): Dear ImGui, GLFW, stb and fonts from the distribution; Xvfb and Mesa's
# software OpenGL for its headless tests (screenshots checked without a person).
packages+=(libimgui-dev libglfw3-dev libstb-dev fonts-dejavu-core xvfb xauth libgl1-mesa-dri)
# `warpsim grade`'s sandbox: bubblewrap isolates each submission without root (README, "What the
# grader's sandbox guarantees"); without it the grader falls back to weaker isolation and says so.
packages+=(bubblewrap)
# Thrust for programs that use it (built with its CPP device system, warpsim/cuda_shim.hpp) where
# no CUDA toolkit is installed; a toolkit's own CCCL Thrust wins when there is one.
packages+=(libthrust-dev libcub-dev)

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

configure() {  # dir, extra cmake args...
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" -G Ninja "$@" >/dev/null
}

# Builds `dir` (the targets named after it, else all) and keeps what the compiler said in
# $dir/build-output.txt.
build() {  # dir, [targets...]
  local dir=$1
  shift
  local targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  cmake --build "$dir" -j "$jobs" "${targets[@]}" 2>&1 | tee "$dir/build-output.txt"
}

# Warnings are errors for `test`: the release build (every target) must compile without one.
# Only what this build compiled is seen: a tree built earlier by `start` is clean already.
no_warnings() {  # dir
  if grep -q -E ': warning: ' "$1/build-output.txt"; then
    echo "setup: the build warned (warnings are errors in the test command):" >&2
    grep -E ': warning: ' "$1/build-output.txt" | sort -u >&2
    exit 1
  fi
}

# One release tree for both commands, configured alike: `test` after `start` builds nothing new.
release=(-DCMAKE_BUILD_TYPE=Release)

case "$mode" in
  start)
    install_missing
    configure "$root/build/release" "${release[@]}"
    build "$root/build/release"
    # warpsim with no command: the GUI where a display exists, the terminal walkthrough otherwise.
    exec "$root/build/release/cli/warpsim"
    ;;
  test)
    install_missing
    configure "$root/build/release" "${release[@]}"
    build "$root/build/release"
    no_warnings "$root/build/release"
    ctest --test-dir "$root/build/release" --output-on-failure -j "$jobs"
    # AddressSanitizer with UBSan (and warnings as errors) on the suites labelled neither `heavy`
    # nor `unsanitized` (the target sanitizer_suite): warpsim's own code in the suites' process,
    # where the sanitizers have found bugs. The others drive `warpsim` and the grader end to end,
    # compile hundreds of user kernels or wait on NVRTC, and the release tree has just run them
    # (tests/CMakeLists.txt says which and why).
    configure "$root/build/asan" -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON -DWARPSIM_WERROR=ON
    build "$root/build/asan" sanitizer_suite
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --test-dir "$root/build/asan" --output-on-failure -j "$jobs" -LE 'heavy|unsanitized'
    ;;
  *)
    echo "usage: scripts/setup.sh start|test" >&2
    exit 2
    ;;
esac
