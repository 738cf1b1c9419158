#!/usr/bin/env bash
# Records what every corpus program (tests/programs/*.cu) prints on a real GPU, for
# program_tests to compare `warpsim exec` with.
#
#   tests/programs/record_gpu.sh [--arch sm_90] [--time-limit SECONDS] [NAME...]
#
# Each program (or only the NAMEs given, without .cu) is built with nvcc for --arch (default:
# the device's own compute capability), with the flags a first line "// nvcc flags: ..." names
# (-rdc=true for kernels that launch kernels), and run once; its stdout and exit status are written to
#   tests/programs/recorded/<name>.txt
# as "# " header lines (device, driver, CUDA, date, commit, exit status), then the program's
# stdout exactly. stderr is not recorded (timings, device names). A program that does not end
# within the time limit (default 60 s) is recorded with exit status 124. cases/ is skipped:
# some of its programs never end on a GPU. Needs nvidia-smi and nvcc ($NVCC, PATH or
# /usr/local/cuda/bin); no warpsim build is needed. Exit status: 0 when every program printed
# PASSED and exited 0, 1 otherwise, 3 without a CUDA device.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
arch=""
limit=60
names=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --arch) arch="$2"; shift 2 ;;
    --time-limit) limit="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "record_gpu.sh: unknown option $1" >&2; exit 2 ;;
    *) names+=("${1%.cu}"); shift ;;
  esac
done

. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu.sh
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[[ -x "$nvcc" ]] || { echo "record_gpu.sh: no nvcc (set NVCC)" >&2; exit 3; }

device="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
driver="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n1)"
cc="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d .)"
[[ -n "$arch" ]] || arch="sm_$cc"
cuda="$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/\1 (\2)/p' | head -n1)"
date_utc="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
# A tree that differs from its commit (or a copy whose history is stale) is not that commit.
git -C "$root" diff --quiet HEAD -- 2>/dev/null || commit="$commit with uncommitted changes"

if [[ ${#names[@]} -eq 0 ]]; then
  for file in "$here"/*.cu; do names+=("$(basename "$file" .cu)"); done
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/recorded"
failures=0
for name in "${names[@]}"; do
  source="$here/$name.cu"
  [[ -f "$source" ]] || { echo "record_gpu.sh: no $source" >&2; failures=$((failures + 1)); continue; }
  read -r -a flags <<< "$(sed -n '1s|^// nvcc flags: ||p' "$source")"
  if ! "$nvcc" -arch="$arch" -O2 "${flags[@]}" -o "$work/$name" "$source" 2> "$work/$name.log"; then
    cat "$work/$name.log" >&2
    echo "record_gpu.sh: $name did not compile with nvcc" >&2
    failures=$((failures + 1))
    continue
  fi
  status=0
  (cd "$work" && timeout "$limit" "./$name" > "$work/$name.out" 2> "$work/$name.err") || status=$?
  {
    printf '# program: tests/programs/%s.cu\n' "$name"
    printf '# device: %s (sm_%s), driver %s\n' "$device" "$cc" "$driver"
    printf '# nvcc: CUDA %s, -arch=%s -O2%s\n' "$cuda" "$arch" "${flags[*]:+ ${flags[*]}}"
    printf '# recorded: %s at commit %s by tests/programs/record_gpu.sh\n' "$date_utc" "$commit"
    printf '# exit status: %d\n' "$status"
    cat "$work/$name.out"
  } > "$here/recorded/$name.txt"
  verdict="exit $status"
  if [[ $status -ne 0 ]] || ! grep -qx PASSED "$work/$name.out"; then
    failures=$((failures + 1))
    verdict="$verdict, NOT PASSED (stderr: $(head -c 300 "$work/$name.err" | tr '\n' ' '))"
  fi
  echo "$name: $verdict"
done
echo "recorded ${#names[@]} programs in $here/recorded ($failures not passing)"
[[ $failures -eq 0 ]]
