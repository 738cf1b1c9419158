#!/usr/bin/env bash
# Runs the fuzz corpus on this machine's GPU, built with nvcc (not warpsim's own GPU path), and
# writes every kernel's outputs and CUDA status: the recording that tests/fuzz replays in the
# simulator.
#
#   scripts/fuzz/record_gpu.sh PROGRAMS_DIR OUT_DIR      # e.g. tests/fuzz/programs /tmp/rec
#
# PROGRAMS_DIR holds fuzz_NN.cu (scripts/fuzz/gen_warp_fuzz.py). OUT_DIR receives
# fuzz_NN.txt.gz (one per program: per kernel `begin`, `status`, `words`, the words, `end`),
# device.txt (device, driver, nvcc, date, host) and fuzz_gpu.tar.gz with all of them.
# A kernel that traps (cudaErrorIllegalInstruction, ...) poisons the CUDA context: its program
# stops after writing that status, and is restarted at the next kernel. A kernel that runs
# longer than FUZZ_TIMEOUT seconds (default 60) is recorded as `status hang`.
# FUZZ_ARCH (default sm_90) is nvcc's -arch; FUZZ_JOBS parallel compiles (default: every core).
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 PROGRAMS_DIR OUT_DIR" >&2
  exit 2
fi
src=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
arch=${FUZZ_ARCH:-sm_90}
jobs=${FUZZ_JOBS:-$(nproc)}
limit=${FUZZ_TIMEOUT:-60}
command -v nvcc >/dev/null || { echo "nvcc not found on PATH" >&2; exit 3; }
command -v nvidia-smi >/dev/null || { echo "nvidia-smi not found: no GPU here?" >&2; exit 3; }

build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

{
  echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "compute_capability: $(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)"
  echo "nvcc: $(nvcc --version | grep -i release)"
  echo "arch: $arch"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -srm)"
} > "$out/device.txt"
cat "$out/device.txt"

# Every program built in parallel (compiles are the slow part); a build failure is fatal.
ls "$src"/fuzz_*.cu > "$build/list" || { echo "no fuzz_*.cu in $src" >&2; exit 2; }
export arch build
if ! xargs -P "$jobs" -I{} sh -c \
    'n=$(basename {} .cu); nvcc -arch=$arch -O3 -w -o "$build/$n" {} > "$build/$n.log" 2>&1 || { cat "$build/$n.log"; exit 255; }' \
    < "$build/list"; then
  echo "nvcc failed (above)" >&2
  exit 1
fi

# Runs one program to the end, restarting after a kernel that trapped or hung.
run_program() {
  local bin=$1 result=$2 total=$3 first=0 rc begun
  rm -f "$result"
  while [ "$first" -lt "$total" ]; do
    timeout "$limit" "$bin" "$result" "$first"
    rc=$?
    [ "$rc" -eq 0 ] && return 0
    begun=$(grep -c '^begin ' "$result" 2>/dev/null || echo 0)
    if [ "$(tail -n 1 "$result" | cut -d' ' -f1)" != "end" ]; then
      # Killed (hang) or crashed inside a kernel: the status the program could not write.
      local name
      name=$(grep '^begin ' "$result" | tail -n 1 | cut -d' ' -f2)
      if [ "$rc" -eq 124 ]; then echo "status hang"; else echo "status exit_$rc"; fi >> "$result"
      echo "end $name" >> "$result"
    fi
    if [ "$begun" -le "$first" ]; then
      echo "$bin made no progress (exit $rc)" >&2
      return 1
    fi
    first=$begun
  done
}

status=0
for cu in $(cat "$build/list"); do
  n=$(basename "$cu" .cu)
  total=$(grep -c '^  {"fz' "$cu")
  run_program "$build/$n" "$build/$n.txt" "$total" || status=1
  ok=$(grep -c '^status cudaSuccess' "$build/$n.txt")
  echo "$n: $total kernels, $ok cudaSuccess, others: $(grep '^status ' "$build/$n.txt" | grep -v cudaSuccess | sort | uniq -c | tr '\n' ' ')"
  gzip -9 -n -c "$build/$n.txt" > "$out/$n.txt.gz"
done
(cd "$out" && tar czf fuzz_gpu.tar.gz device.txt fuzz_*.txt.gz)
echo "recorded in $out ($(du -sh "$out/fuzz_gpu.tar.gz" | cut -f1) packed)"
exit $status
