# What every script that records on a GPU machine does first; sourced, not run:
#
#   . "$root/scripts/gpu_recording.sh"
#   require_gpu record_x.sh                                  # exit 3 without a CUDA device
#   warpsim="$(warpsim_for_gpu "$root" "$build" record_x.sh)" || exit 1
#   device_lines > "$out/device.txt"                         # device, nvcc, host, compiler, date

# Exit 3, naming the script, where nvidia-smi finds no CUDA device.
require_gpu() {
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "$1: no CUDA device here (nvidia-smi finds none); run this on a GPU machine" >&2
    exit 3
  fi
}

# The warpsim to record with: $WARPSIM where it names one, else one built in BUILD (a Release
# build of the CLI alone); prints its path. Fails when the build does.
warpsim_for_gpu() {  # root build script-name
  local warpsim="${WARPSIM:-$2/cli/warpsim}"
  if [[ ! -x "$warpsim" ]]; then
    echo "$3: building warpsim in $2" >&2
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSIM_BUILD_TESTS=OFF \
          -DWARPSIM_BUILD_BENCH=OFF -DWARPSIM_BUILD_GUI=OFF >&2 &&
      cmake --build "$2" --target warpsim -j "$(nproc)" >&2 || return 1
  fi
  echo "$warpsim"
}

# What a recording says about where it was made.
device_lines() {
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n1)"
  echo "nvcc: $(nvcc --version | grep release)"
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "compiler: $(c++ --version | head -n1)"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
}

# What a probe recorder (tests/shim/record_*_probes.sh) does first: -h prints lines 2..N of its
# header comment, any other argument is refused (exit 2), no GPU is exit 3; then $nvcc is the
# nvcc to build with and $work a scratch folder removed when the script exits.
start_probe_recording() {  # script-path last-help-line "$@"
  local script="$1" last="$2"
  shift 2
  case "${1:-}" in
    -h|--help) sed -n "2,${last}p" "$script"; exit 0 ;;
    "") ;;
    *) echo "$(basename "$script"): unknown argument $1" >&2; exit 2 ;;
  esac
  require_gpu "$(basename "$script")"
  nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
}
