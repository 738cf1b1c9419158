#!/usr/bin/env bash
# Records the corpus on a real GPU, for corpus_tests to compare the simulator with.
#
#   tests/corpus/record_gpu.sh [--build DIR] [--via warpsim|nvcc] [--include-hangs]
#                              [--trace-blocks N] [--trace-calls N] [NAME...]
#
# For every entry of tests/corpus/corpus.json (or only the NAMEs given) it writes
#   tests/corpus/gpu/<name>.json          a run.md-shaped object of the GPU run: "buffers" and
#                                         "printf" are the GPU's; with --via warpsim also "gpu"
#                                         (the `run --gpu --json` member: device, per-buffer and
#                                         per-step comparison with the simulator at recording
#                                         time), and "steps"/"diagnostics" of the simulator run;
#                                         plus a "header" object (device, driver, date, recorder)
#   tests/corpus/gpu/<name>.trace.json.gz the device trace (--via warpsim: `--gpu-trace-out`,
#                                         write_device_trace_json); a stale one is removed when
#                                         the new recording has none
#   tests/corpus/gpu/DEVICE.txt           nvidia-smi's device name and driver, and the date
#
# --via warpsim (default): `warpsim run FILE ... --gpu --json --gpu-trace-out OUT`, building
#   warpsim in DIR (default build-gpu) if needed. The GPU's buffers are the "outputs" of the
#   "gpu" member (see gpu_report() below).
# --via nvcc: no warpsim needed. Each entry is compiled with nvcc together with a generated
#   host driver that loads the same inputs, launches the kernel and dumps the buffers. It records
#   no trace.
# --trace-blocks N, --trace-calls N: passed as --gpu-trace-blocks / --gpu-trace-calls (default
#   4 and 256, warpsim's defaults).
# --include-hangs: also run entries with "gpu": false that expect exit status 1 (kernels that
#   deadlock), under a timeout; one that times out is recorded as {"gpu_status": "hang"}. Only
#   --via nvcc runs them: `warpsim run --gpu` never sends a kernel the simulator found
#   deadlocking to the GPU, so --via warpsim skips them (keeping any earlier recording).
# Entries with "gpu": false are otherwise skipped (e.g. simulator-only scheduling policies).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build-gpu"
via=warpsim
include_hangs=0
trace_blocks=4
trace_calls=256
names=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --via) via="$2"; shift 2 ;;
    --include-hangs) include_hangs=1; shift ;;
    --trace-blocks) trace_blocks="$2"; shift 2 ;;
    --trace-calls) trace_calls="$2"; shift 2 ;;
    -h|--help) sed -n '2,34p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "record_gpu.sh: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
[[ "$via" == warpsim || "$via" == nvcc ]] || { echo "record_gpu.sh: --via warpsim or nvcc" >&2; exit 2; }

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "record_gpu.sh: no CUDA device here (nvidia-smi finds none); run this on a GPU machine" >&2
  exit 3
fi
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"

warpsim="${WARPSIM:-$build/cli/warpsim}"  # WARPSIM: a prebuilt executable to use
if [[ "$via" == warpsim && ! -x "$warpsim" ]]; then
  echo "record_gpu.sh: building warpsim in $build" >&2
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPSIM_BUILD_BENCH=OFF >&2
  cmake --build "$build" --target warpsim -j "$(nproc)" >&2
fi

mkdir -p "$here/gpu"
device="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
driver="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n1)"
cc="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d .)"
date_utc="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
cuda="$("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -n1)"
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
printf '%s, driver %s, CUDA %s, sm_%s, recorded %s via %s\n' \
  "$device" "$driver" "${cuda:-?}" "$cc" "$date_utc" "$via" > "$here/gpu/DEVICE.txt"

export REC_DEVICE="$device" REC_DRIVER="$driver" REC_CC="$cc" REC_DATE="$date_utc" \
       REC_CUDA="$cuda" REC_COMMIT="$commit" REC_VIA="$via" REC_HANGS="$include_hangs" \
       REC_WARPSIM="$warpsim" REC_NVCC="$nvcc" REC_CORPUS="$here" \
       REC_TRACE_BLOCKS="$trace_blocks" REC_TRACE_CALLS="$trace_calls"

python3 - "${names[@]}" <<'PY'
import gzip, json, math, os, shutil, struct, subprocess, sys, tempfile

corpus = os.environ["REC_CORPUS"]
via = os.environ["REC_VIA"]
include_hangs = os.environ["REC_HANGS"] == "1"
wanted = set(sys.argv[1:])
RUN_TIMEOUT = 120   # seconds for a kernel that should complete
HANG_TIMEOUT = 20   # seconds before a kernel expected to deadlock counts as hung

FMT = {"i32": "<i", "u32": "<I", "f32": "<f", "i64": "<q", "u64": "<Q", "f64": "<d"}
CTYPE = {"i32": "int", "u32": "unsigned int", "f32": "float", "i64": "long long",
         "u64": "unsigned long long", "f64": "double"}
UTYPE = {"i32": "uint32_t", "u32": "uint32_t", "f32": "uint32_t", "i64": "uint64_t",
         "u64": "uint64_t", "f64": "uint64_t"}


def header(entry):
    return {"device": os.environ["REC_DEVICE"], "driver": os.environ["REC_DRIVER"],
            "sm": int(os.environ["REC_CC"] or 0), "cuda": os.environ["REC_CUDA"],
            "date": os.environ["REC_DATE"], "warpsim_commit": os.environ["REC_COMMIT"],
            "recorder": "warpsim run --gpu" if via == "warpsim" else
                        "record_gpu.sh --via nvcc (nvcc-compiled host driver)",
            "file": entry["file"], "kernel": entry["kernel"], "grid": entry["grid"],
            "block": entry["block"], "args": entry["args"], "options": entry.get("options", [])}


def command_args(entry):
    """The warpsim command line of an entry, with file paths made absolute."""
    args = ["--kernel", entry["kernel"], "--grid", entry["grid"], "--block", entry["block"]]
    for spec in entry["args"]:
        head, _, init = spec.partition(":")
        if init.startswith("file:"):
            spec = head + ":file:" + os.path.join(corpus, init[5:])
        args += ["--arg", spec]
    return [os.path.join(corpus, entry["file"])] + args + entry.get("options", [])


def gpu_report(entry, output, stderr):
    """The GPU run inside `warpsim run --gpu --json` output, as a run.md-style object (None: the
    GPU stage did not run because the simulation did not complete)."""
    gpu = output.get("gpu")
    if not isinstance(gpu, dict):
        raise SystemExit(f"record_gpu.sh: {entry['name']}: `warpsim run --gpu --json` printed no "
                         f"\"gpu\" object:\n{stderr}")
    if "skipped" in gpu:
        return None
    if "error" in gpu:
        return {"kernel": output.get("kernel", entry["kernel"]), "gpu_status": "error",
                "message": gpu.get("message", "?") + "\n" + stderr.strip(), "buffers": [],
                "gpu": gpu}
    if "outputs" not in gpu:
        raise SystemExit(f"record_gpu.sh: {entry['name']}: the \"gpu\" object has no "
                         f"\"outputs\"; adapt gpu_report() in record_gpu.sh to the CLI's output")
    comparison = {k: v for k, v in gpu.items() if k not in ("outputs", "printf")}
    return {"kernel": output.get("kernel", entry["kernel"]), "status": "completed",
            "gpu_status": "completed", "buffers": gpu["outputs"], "printf": gpu.get("printf", []),
            "steps": output.get("steps"), "diagnostics": output.get("diagnostics", []),
            "gpu": comparison}


def record_via_warpsim(entry, timeout, out_dir):
    trace = os.path.join(out_dir, "device-trace.json")
    cmd = [os.environ["REC_WARPSIM"], "run"] + command_args(entry) + [
        "--gpu", "--json", "--gpu-trace-out", trace,
        "--gpu-trace-blocks", os.environ["REC_TRACE_BLOCKS"],
        "--gpu-trace-calls", os.environ["REC_TRACE_CALLS"]]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"gpu_status": "hang"}, None
    if p.returncode == 3:
        raise SystemExit("record_gpu.sh: warpsim run --gpu: " + p.stderr.strip())
    try:
        output = json.loads(p.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"record_gpu.sh: {entry['name']}: exit {p.returncode}, no JSON:\n{p.stderr}")
    record = gpu_report(entry, output, p.stderr)
    if record is None:
        return None, None
    return record, (trace if os.path.exists(trace) else None)


# ---- --via nvcc: a generated host driver around the unmodified kernel file -------------------

def parse_spec(spec):
    """(type, is_buffer, values as bytes) for one --arg, as warpsim reads it (run.md)."""
    head, _, init = spec.partition(":")
    if "[" not in head:
        return head, False, element_bytes(head, init)
    kind, count = head[:-1].split("[")
    count = int(count)
    size = struct.calcsize(FMT[kind])
    if init == "zeros":
        data = bytes(count * size)
    elif init == "iota":
        data = b"".join(struct.pack(FMT[kind], float(i) if kind[0] == "f" else i) for i in range(count))
    elif init.startswith("file:"):
        with open(os.path.join(corpus, init[5:]), "rb") as f:
            data = f.read()
    else:
        data = b"".join(element_bytes(kind, item) for item in init.split(","))
    assert len(data) == count * size, f"{spec}: {len(data)} bytes for {count} elements"
    return kind, True, data


def element_bytes(kind, text):
    """One element's little-endian bytes; integers in decimal or 0x hex (hex is a bit pattern)."""
    if kind[0] == "f":
        return struct.pack(FMT[kind], float(text))
    size = struct.calcsize(FMT[kind])
    return (int(text, 0) % (1 << (8 * size))).to_bytes(size, "little")


def json_value(kind, raw):
    v = struct.unpack(FMT[kind], raw)[0]
    if kind[0] != "f":
        return v
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    text = ("%.9g" if kind == "f32" else "%.17g") % v
    return json.loads(text)  # keep the printed digits (as warpsim prints them)


def driver_source(entry, kernel_path, args):
    dims = lambda t: ", ".join((t.split(",") + ["1", "1"])[:3])
    shared = 0
    options = entry.get("options", [])
    if "--shared" in options:
        shared = int(options[options.index("--shared") + 1])
    lines = [
        "#include <cstdint>", "#include <cstdio>", "#include <cstdlib>", "#include <cstring>",
        "#include <cuda_runtime.h>", f'#include "{kernel_path}"', "",
        "static void check(cudaError_t e, const char* what) {",
        '  if (e != cudaSuccess) { fprintf(stderr, "%s: %s\\n", what, cudaGetErrorString(e)); exit(1); }',
        "}",
        "static void* load(const char* dir, int arg, size_t bytes) {",
        "  char path[4096]; snprintf(path, sizeof path, \"%s/in%d.bin\", dir, arg);",
        "  FILE* f = fopen(path, \"rb\"); void* host = malloc(bytes ? bytes : 1);",
        "  if (!f || fread(host, 1, bytes, f) != bytes) { fprintf(stderr, \"cannot read %s\\n\", path); exit(1); }",
        "  fclose(f); void* dev = nullptr;",
        "  check(cudaMalloc(&dev, bytes ? bytes : 1), \"cudaMalloc\");",
        "  check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), \"copy in\");",
        "  free(host); return dev;",
        "}",
        "static void save(const char* dir, int arg, const void* dev, size_t bytes) {",
        "  void* host = malloc(bytes ? bytes : 1);",
        "  check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), \"copy out\");",
        "  char path[4096]; snprintf(path, sizeof path, \"%s/out%d.bin\", dir, arg);",
        "  FILE* f = fopen(path, \"wb\"); fwrite(host, 1, bytes, f); fclose(f); free(host);",
        "}",
        "int main(int argc, char** argv) {",
        "  const char* dir = argv[1];",
    ]
    call = []
    for i, (kind, is_buffer, data) in enumerate(args):
        if is_buffer:
            lines.append(f"  {CTYPE[kind]}* a{i} = ({CTYPE[kind]}*)load(dir, {i}, {len(data)});")
        else:
            bits = int.from_bytes(data, "little")
            lines.append(f"  {CTYPE[kind]} a{i}; {{ {UTYPE[kind]} b = {bits}ull; "
                         f"memcpy(&a{i}, &b, sizeof a{i}); }}")
        call.append(f"a{i}")
    lines += [
        f"  {entry['kernel']}<<<dim3({dims(entry['grid'])}), dim3({dims(entry['block'])}), {shared}>>>"
        f"({', '.join(call)});",
        "  check(cudaGetLastError(), \"launch\");",
        "  check(cudaDeviceSynchronize(), \"kernel\");",
        "  fflush(stdout);",
    ]
    for i, (kind, is_buffer, data) in enumerate(args):
        if is_buffer:
            lines.append(f"  save(dir, {i}, a{i}, {len(data)});")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def record_via_nvcc(entry, timeout, work):
    args = [parse_spec(spec) for spec in entry["args"]]
    for i, (kind, is_buffer, data) in enumerate(args):
        if is_buffer:
            with open(os.path.join(work, f"in{i}.bin"), "wb") as f:
                f.write(data)
    source = os.path.join(work, "driver.cu")
    with open(source, "w") as f:
        f.write(driver_source(entry, os.path.join(corpus, entry["file"]), args))
    exe = os.path.join(work, "driver")
    cc = os.environ["REC_CC"] or "90"
    build = subprocess.run([os.environ["REC_NVCC"], f"-arch=sm_{cc}", "-o", exe, source],
                           capture_output=True, text=True)
    if build.returncode != 0:
        raise SystemExit(f"record_gpu.sh: {entry['name']}: nvcc failed:\n{build.stderr}")
    try:
        p = subprocess.run([exe, work], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"gpu_status": "hang"}, None
    if p.returncode != 0:
        return {"kernel": entry["kernel"], "gpu_status": "error", "message": p.stderr.strip(),
                "buffers": []}, None
    buffers = []
    for i, (kind, is_buffer, data) in enumerate(args):
        if not is_buffer:
            continue
        with open(os.path.join(work, f"out{i}.bin"), "rb") as f:
            raw = f.read()
        size = struct.calcsize(FMT[kind])
        buffers.append({"arg": i, "type": kind,
                        "values": [json_value(kind, raw[k:k + size]) for k in range(0, len(raw), size)]})
    printf = [{"text": line} for line in p.stdout.splitlines(keepends=True)]
    return {"kernel": entry["kernel"], "status": "completed", "gpu_status": "completed",
            "buffers": buffers, "diagnostics": [], "printf": printf}, None


# ---- main ------------------------------------------------------------------------------------

with open(os.path.join(corpus, "corpus.json")) as f:
    entries = json.load(f)["entries"]
unknown = wanted - {e["name"] for e in entries}
if unknown:
    raise SystemExit("record_gpu.sh: no such entries: " + ", ".join(sorted(unknown)))

recorded = skipped = hangs = 0
for entry in entries:
    name = entry["name"]
    if wanted and name not in wanted:
        continue
    expect_hang = entry.get("exit", 0) == 1
    if not entry.get("gpu", True) and not (include_hangs and expect_hang):
        print(f"{'skip':10s}{name}: {entry.get('gpu_note', 'gpu: false')}")
        skipped += 1
        continue
    timeout = HANG_TIMEOUT if expect_hang else RUN_TIMEOUT
    with tempfile.TemporaryDirectory() as work:
        if via == "warpsim":
            record, trace = record_via_warpsim(entry, timeout, work)
        else:
            record, trace = record_via_nvcc(entry, timeout, work)
        if record is None:
            print(f"{'skip':10s}{name}: the simulator did not complete it, so warpsim does not "
                  f"run it on the GPU (record it with --via nvcc --include-hangs)")
            skipped += 1
            continue
        out = {"header": header(entry)}
        out.update(record)
        with open(os.path.join(corpus, "gpu", name + ".json"), "w") as f:
            json.dump(out, f, separators=(",", ":"))
            f.write("\n")
        trace_out = os.path.join(corpus, "gpu", name + ".trace.json.gz")
        if trace:
            with open(trace, "rb") as src, gzip.GzipFile(trace_out, "wb", mtime=0) as dst:
                shutil.copyfileobj(src, dst)
        elif os.path.exists(trace_out):
            os.remove(trace_out)
    status = out.get("gpu_status", "completed")
    hangs += status == "hang"
    recorded += 1
    print(f"{status:10s}{name}" + (f": {out.get('message')}" if status == "error" else ""))

print(f"record_gpu.sh: {recorded} recorded ({hangs} hung), {skipped} skipped -> {corpus}/gpu")
PY
