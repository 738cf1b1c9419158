// The one result of a run (KernelFileResult): what a GPU run of the same launch needs (initial
// buffers, the resolved kernel, steps), how every ending is a status with its diagnostic, and
// how a compile error carries the compiler's output.
#include <doctest/doctest.h>

#include <dlfcn.h>
#include <stdlib.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/kernel_cache.hpp"
#include "warpsim/kernel_file_runner.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/sandbox.hpp"

namespace fs = std::filesystem;
using namespace warpsim;
using namespace warpsim::runner;

namespace {

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";

// One block of `block` threads running `kernel` of tests/runner/kernels/`file` with `specs`.
KernelFileRequest one_block_request(const std::string& file, const char* kernel,
                                    std::uint32_t block,
                                    std::initializer_list<const char*> specs) {
  KernelFileRequest request;
  request.file = kKernels + file;
  request.kernel = kernel;
  request.grid = {1};
  request.block = {block};
  for (const char* spec : specs) request.args.push_back(*parse_arg_spec(spec));
  return request;
}

KernelFileRequest butterfly() {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest r;
  r.file = kKernels + "butterfly_reduce.cu";
  r.kernel = "butterfly_reduce";
  r.grid = {1, 1, 1};
  r.block = {32, 1, 1};
  for (const char* spec : {"f32[32]:iota", "f32[32]:zeros", "i32:32"}) {
    r.args.push_back(*parse_arg_spec(spec));
  }
  return r;
}

float element(const OutputBuffer& buffer, std::size_t i) {
  float value = 0;
  std::memcpy(&value, buffer.bytes.data() + i * sizeof value, sizeof value);
  return value;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a completed run: the kernel as resolved, buffers before and after, every step") {
  KernelFileRequest request = butterfly();
  request.keep_initial_buffers = true;
  const KernelFileResult r = run_kernel_file(request);
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
  CHECK(r.kernel == "butterfly_reduce");
  CHECK(r.kernel_expression == "::butterfly_reduce");
  CHECK(r.grid.x == 1);
  CHECK(r.block.x == 32);
  CHECK(r.steps == 5);
  CHECK(r.trace.steps.size() == 5);
  REQUIRE(r.initial_buffers.size() == 2);
  REQUIRE(r.buffers.size() == 2);
  CHECK(r.initial_buffers[1].arg == 1);
  CHECK(element(r.initial_buffers[0], 31) == 31.0f);
  CHECK(element(r.initial_buffers[1], 0) == 0.0f);  // before the launch: zeros
  CHECK(element(r.buffers[1], 0) == 496.0f);
  CHECK(r.buffers[1].count() == 32);
  CHECK(r.exit_status() == kExitRan);
}

TEST_CASE("without recorded steps the trace still holds the diagnostics and the step count") {
  KernelFileRequest request = butterfly();
  request.record_steps = false;
  const KernelFileResult r = run_kernel_file(request);
  REQUIRE(r.status == RunStatus::completed);
  CHECK(r.steps == 5);
  CHECK(r.trace.steps.empty());
  CHECK(r.initial_buffers.empty());  // not asked for
}

TEST_CASE("a deadlock is a status with its diagnostic in the trace") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("deadlock.cu", "stuck", 32, {"i32[32]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  CHECK(r.status == RunStatus::deadlock);
  CHECK(r.exit_status() == kExitKernelFailed);
  bool named = false;
  for (const Diagnostic& d : r.trace.diagnostics)
    named = named || d.kind == DiagnosticKind::deadlock;
  CHECK(named);
  CHECK_FALSE(r.message.empty());
}

TEST_CASE("a compile error is bad input whose details hold the compiler's output") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = 
      one_block_request("compile_error.cu", "broken", 32, {"f32[32]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  CHECK(r.status == RunStatus::bad_input);
  CHECK(contains(r.message, "did not compile"));
  CHECK(r.message.find('\n') == std::string::npos);  // one line
  CHECK(contains(r.details, "compile_error.cu:5:"));
  CHECK(r.exit_status() == kExitBadInput);
}

TEST_CASE("a kernel file's listing names written and macro-declared kernels") {
  const auto listing = list_kernels(kKernels + "macro_kernels.cu");
  REQUIRE(listing);
  bool from_macro = false;
  for (const KernelListing& k : *listing) from_macro = from_macro || k.from_macro;
  CHECK(from_macro);
  CHECK_FALSE(list_kernels("/nonexistent/k.cu"));
  CHECK(list_kernels("/nonexistent/k.cu").error().kind == ErrorKind::file);
}

// The GUI runs kernels from a worker thread while other threads (the renderer's) load libraries.
// A kernel process forked from such a caller could inherit the dynamic loader's lock held by
// another thread and hang in dlopen (about one fork in fifteen did, measured); started with exec,
// none can.
TEST_CASE("runs from a threaded caller whose other thread keeps loading libraries never hang") {
  std::atomic<bool> stop{false};
  std::thread loader([&] {
    while (!stop) {
      if (void* library = dlopen("libresolv.so.2", RTLD_NOW | RTLD_LOCAL)) dlclose(library);
    }
  });
  KernelFileRequest request = butterfly();
  request.timeout_seconds = 20;
  int completed = 0;
  for (int run = 0; run < 20; ++run) {
    const KernelFileResult r = run_kernel_file(request);
    INFO("run " << run << ": " << r.message);
    CHECK(r.status == RunStatus::completed);
    completed += r.status == RunStatus::completed ? 1 : 0;
  }
  stop = true;
  loader.join();
  CHECK(completed == 20);
}

TEST_CASE("the kernel host started by hand says it is warpsim's, and stops") {
  const std::string host = std::string(WARPSIM_BINARY_DIR) + "/sim/warpsim-kernel-host";
  REQUIRE(fs::exists(host));
  // No job on its descriptors: it must say so (on the result pipe, absent here) and exit non-zero.
  const int status = std::system((host + " </dev/null 3</dev/null 4>/dev/null").c_str());
  CHECK(status != 0);
}

namespace {

// tests/runner/kernels/launch_series.cu: one warp, ending as `mode` says (0 completes, 1 crashes
// at line 15, 2 hangs, 3 exits without a report).
KernelFileRequest series(int mode, const Sandbox& box = {}) {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("launch_series.cu", "series", 32, {"i32[33]:zeros"});
  request.args.push_back(*parse_arg_spec("i32:" + std::to_string(mode)));
  request.timeout_seconds = 1;
  request.record_steps = false;
  request.sandbox = box;
  return request;
}

void check_completed(const KernelFileResult& r, const KernelFileResult& alone) {
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
  const std::vector<int> out = r.buffer<int>(0);
  REQUIRE(out.size() == 33);
  for (int lane = 0; lane < 32; ++lane) CHECK(out[static_cast<std::size_t>(lane)] == lane);
  CHECK(out[32] == 1);  // a process of its own: no launch before it
  CHECK(r.steps == alone.steps);
  CHECK(r.trace.diagnostics.size() == alone.trace.diagnostics.size());
  CHECK(r.kernel == alone.kernel);
}

// Launches of every ending, one after another in one KernelFileRunner, each as run_kernel_file
// reports it alone, and the one after a crash, a hang and an exit running all the same.
void check_series(const Sandbox& box) {
  const KernelFileResult alone = run_kernel_file(series(0, box));
  check_completed(alone, alone);
  KernelFileRunner runs;
  check_completed(runs.run(series(0, box)), alone);
  const KernelFileResult crash = runs.run(series(1, box));
  CHECK(crash.status == RunStatus::crashed);
  CHECK_MESSAGE(contains(crash.message, "launch_series.cu:15"), crash.message);
  check_completed(runs.run(series(0, box)), alone);
  const auto start = std::chrono::steady_clock::now();
  const KernelFileResult hang = runs.run(series(2, box));
  CHECK(hang.status == RunStatus::timeout);
  CHECK_MESSAGE(contains(hang.message, "did not finish within 1 s"), hang.message);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  check_completed(runs.run(series(0, box)), alone);
  const KernelFileResult exited = runs.run(series(3, box));
  CHECK(exited.status == RunStatus::crashed);
#if defined(__SANITIZE_ADDRESS__)
  // Under ASan the process's exit-time work changes how it ends: the leak report changes its
  // status, and in the sandbox the syscall filter stops that work (signal 31), as
  // grade_sandbox_tests expects too.
  CHECK_MESSAGE((contains(exited.message, "before reporting") ||
                 contains(exited.message, "signal 31")),
                exited.message);
#else
  CHECK_MESSAGE(contains(exited.message, "exited with status 0 before reporting"), exited.message);
#endif
  // Another launch shape and a step budget: the same compiled file, another launch.
  KernelFileRequest two_warps = series(0, box);
  two_warps.block = {64};
  const KernelFileResult wide = runs.run(two_warps);
  REQUIRE_MESSAGE(wide.status == RunStatus::completed, wide.message);
  CHECK(wide.steps == 2 * alone.steps);
  check_completed(runs.run(series(0, box)), alone);
  // Bad input of one launch is that launch's alone.
  KernelFileRequest wrong = series(0, box);
  wrong.args.pop_back();
  CHECK(runs.run(wrong).status == RunStatus::bad_input);
  check_completed(runs.run(series(0, box)), alone);
  CHECK(runs.hosts_started() == 1);  // one sandbox start for them all
}

}  // namespace

TEST_CASE("a KernelFileRunner's launches end as alone: a crash, a hang or an exit spares the next") {
  check_series(Sandbox{});
}

TEST_CASE("a KernelFileRunner's launches in the strongest sandbox here end as alone too") {
  const IsolationProbe probe = probe_isolation();
  const fs::path scratch = fs::path(WARPSIM_BINARY_DIR) / "tests" / "runner" / "series-scratch";
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  Sandbox box;
  box.isolation = probe.isolation;
  box.bwrap = probe.bwrap;
  box.syscall_filter = probe.syscall_filter;
  box.scratch = scratch.string();
  MESSAGE("sandbox: " << describe(box));
  check_series(box);
  fs::remove_all(scratch);
}

namespace {

KernelFileResult run_never_set(const std::string& kernel, std::vector<std::string> specs) {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request;
  request.file = kKernels + "never_set_shuffle.cu";
  request.kernel = kernel;
  request.grid = {1};
  request.block = {32};
  for (const std::string& spec : specs) request.args.push_back(*parse_arg_spec(spec));
  return run_kernel_file(request);
}

std::vector<Diagnostic> of_kind(const KernelFileResult& r, DiagnosticKind kind) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : r.trace.diagnostics) {
    if (d.kind == kind) found.push_back(d);
  }
  return found;
}

const std::string kHeadsEvery8 =
    "i32[32]:1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0";

}  // namespace

// GCC (12 and later) fills never-set locals with 0xfe bytes when the kernel is compiled; a
// collective that hands such a value to another lane is named, with the lanes on both sides.
TEST_CASE("a shuffle that reads a lane's never-set local is named: readers, sources, line") {
  const KernelFileResult r = run_never_set("never_set_shuffle", {kHeadsEvery8, "u32[32]:zeros"});
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
  const auto found = of_kind(r, DiagnosticKind::uninitialised_value);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.where.line == 8);
  // Readers: every lane whose right neighbour is no head (lanes 0-6, 8-14, ...); sources: the
  // non-head lanes 1-7, 9-15, ... that were read.
  const LaneMask readers = 0x7f7f7f7fu, sources = 0xfefefefeu;
  CHECK(d.lanes == (readers | sources));
  CHECK(d.message.find("lanes 0-6,8-14,16-22,24-30 read through __shfl_down_sync") !=
        std::string::npos);
  CHECK(d.message.find("(e.g. lane 0 read lane 1's 0xfefefefe") != std::string::npos);
}

TEST_CASE("the same kernel with the local set on every path reports nothing") {
  const KernelFileResult r =
      run_never_set("never_set_shuffle_fixed", {kHeadsEvery8, "u32[32]:zeros"});
  REQUIRE(r.status == RunStatus::completed);
  CHECK(r.trace.diagnostics.empty());
}

TEST_CASE("a reduction over one lane's never-set value names every other lane as a reader") {
  const KernelFileResult r = run_never_set("never_set_reduce", {"i32[32]:zeros"});
  REQUIRE(r.status == RunStatus::completed);
  const auto found = of_kind(r, DiagnosticKind::uninitialised_value);
  REQUIRE(found.size() == 1);
  CHECK(found[0].lanes == 0xffffffffu);  // 31 readers and lane 3, the source
  CHECK(found[0].message.find("lane 3 never set") != std::string::npos);
  const KernelFileResult fixed = run_never_set("never_set_reduce_fixed", {"i32[32]:zeros"});
  CHECK(fixed.trace.diagnostics.empty());
  CHECK(fixed.buffer<int>(0)[0] == 493);  // 0 + 1 + ... + 31 without lane 3
}

TEST_CASE("inline PTX of the warp-level and bit set runs, traced at the asm's line") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("inline_ptx.cu", "ptx_warp", 32,
                        {"f32[32]:iota", "f32[32]:zeros", "u32[160]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message << "\n" << r.details);
  CHECK(r.trace.diagnostics.empty());
  for (const float sum : r.buffer<float>(1)) CHECK(sum == 496.0f);  // shfl.sync.bfly, 5 rounds
  const std::vector<std::uint32_t> bits = r.buffer<std::uint32_t>(2);
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(bits[5 * lane + 0] == (1u << lane) - 1u);                      // %lanemask_lt
    CHECK(bits[5 * lane + 1] == ((0xdeadbeefu >> (lane % 28)) & 0xfu));  // bfe.u32
    CHECK(bits[5 * lane + 2] == 0x11770077u);                            // prmt.b32
    CHECK(bits[5 * lane + 3] == (lane ^ 0xf0f0f0f0u ^ 0x0ff00ff0u));     // lop3 0x96
    CHECK(bits[5 * lane + 4] == 496u);                                   // redux.sync.add
  }
  REQUIRE(r.trace.steps.size() == 6);  // five shuffles and the reduction, as their intrinsics
  for (std::size_t i = 0; i < 5; ++i) {
    const TraceStep step = r.trace.steps.at(i);
    CHECK(step.op == Op::shfl_xor);
    CHECK(step.where[0].line == 11);
  }
  CHECK(r.trace.steps.at(5).op == Op::reduce_add);
}

namespace {
// The 1-based line of the first line of `file` that contains `text` (0 if none).
std::uint32_t line_containing(const std::string& file, const std::string& text) {
  std::ifstream in(file);
  std::string line;
  for (std::uint32_t n = 1; std::getline(in, line); ++n) {
    if (line.find(text) != std::string::npos) return n;
  }
  return 0;
}
}  // namespace

TEST_CASE("inline PTX blocks agree with CUDA's intrinsics lane by lane, traced at the asm's line") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("inline_ptx.cu", "ptx_blocks", 32,
                        {"i32[32]:random:7:-1000:1000", "u32[2048]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message << "\n" << r.details);
  CHECK(r.trace.diagnostics.empty());
  const std::vector<int> in = r.buffer<int>(0);
  const std::vector<std::uint32_t> out = r.buffer<std::uint32_t>(1);
  const auto ptx = [&](int slot, std::uint32_t lane) { return out[64 * slot + 2 * lane]; };
  // Every slot: the PTX block's result equals the intrinsics' (slot names: the kernel's comments).
  for (int slot = 0; slot < 32; ++slot) {
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      CAPTURE(slot);
      CAPTURE(lane);
      CHECK(ptx(slot, lane) == out[64 * slot + 2 * lane + 1]);
    }
  }
  // And a few against the input directly, so that one mistake shared by both sides still fails.
  std::uint32_t odd = 0;
  for (std::uint32_t lane = 0; lane < 32; ++lane) odd |= std::uint32_t(in[lane] & 1) << lane;
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    const auto v = static_cast<std::uint32_t>(in[lane]);
    CHECK(ptx(0, lane) == odd);                                                     // ballot
    CHECK(ptx(5, lane) == (lane + 2 <= 20 ? v + std::uint32_t(in[lane + 2]) : v));  // clamp 20
    CHECK(ptx(7, lane) == (lane % 8 >= 3 ? 1u : 0u));                               // up's p
    CHECK(ptx(8, lane) == (lane < 16 ? std::uint32_t(in[lane ^ 2]) : 7u));           // @p shfl
    CHECK(ptx(9, lane) == (lane % 2 == 0 ? std::uint32_t(in[(lane + 2) % 32]) : 0u));
    CHECK(ptx(15, lane) == (lane ^ v));                                             // mov.b64 {a,b}
  }
  // The warp steps of the PTX sit at the asm's line, with the lanes that ran them.
  const auto steps_at = [&](const char* text, Op op) {
    const std::uint32_t line = line_containing(request.file, text);
    REQUIRE(line != 0);
    std::vector<TraceStep> found;
    for (const TraceStep& step : r.trace.steps) {
      const int first = std::countr_zero(step.participants);
      if (step.op == op && step.where[first].line == line) found.push_back(step);
    }
    return found;
  };
  CHECK(steps_at("vote.sync.ballot.b32 %0, p, %2", Op::ballot).size() == 1);
  CHECK(steps_at("vote.sync.any.pred p, p, %2", Op::any).size() == 1);
  CHECK(steps_at("vote.sync.uni.pred", Op::uni).size() == 1);
  CHECK(steps_at("shfl.sync.down.b32 r0|p", Op::shfl_down).size() == 2);  // clamps 31 and 20
  const auto guarded = steps_at("@p shfl.sync.bfly.b32", Op::shfl_xor);
  REQUIRE(guarded.size() == 1);
  CHECK(guarded[0].participants == 0xffffu);
  const auto divergent = steps_at("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;", Op::shfl_idx);
  REQUIRE(divergent.size() == 1);
  CHECK(divergent[0].participants == 0x55555555u);
}

TEST_CASE("an instruction outside the set in a PTX block stops the launch there, naming it") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = 
      one_block_request("inline_ptx_unsupported.cu", "ptx_unsupported", 32, {"u32[32]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  CHECK(r.status == RunStatus::kernel_exception);
  CHECK_MESSAGE(contains(r.message, "inline_ptx_unsupported.cu:6: inline PTX is not simulated "
                                    "(atom.global.add.u32 %0, [%2], t): no such instruction in "
                                    "the set warpsim runs"),
                r.message);
  // A kernel of the same file that never reaches it runs.
  request.kernel = "ptx_not_reached";
  const KernelFileResult other = run_kernel_file(request);
  CHECK_MESSAGE(other.status == RunStatus::completed, other.message);
}

TEST_CASE("inline PTX in macros runs: parameters as operands, a stringized cache hint") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("inline_ptx_macros.cu", "ptx_macros", 32,
                        {"u32[32]:random:9:0:1000", "u32[128]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message << "\n" << r.details);
  const std::vector<unsigned> in = r.buffer<unsigned>(0);
  const std::vector<unsigned> out = r.buffer<unsigned>(1);
  unsigned odd = 0;
  for (unsigned lane = 0; lane < 32; ++lane) odd |= (in[lane] & 1u) << lane;
  REQUIRE(odd != 0u);
  for (unsigned lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(out[4 * lane] == lane);
    CHECK(out[4 * lane + 1] == odd);
    CHECK(out[4 * lane + 2] == in[lane]);
    CHECK(out[4 * lane + 3] == in[31 - lane]);
  }
}

TEST_CASE("a PTX access at an address a GPU cannot take stops the launch, as the GPU would") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = 
      one_block_request("inline_ptx_misaligned.cu", "misaligned_vector", 32, {"u32[160]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  CHECK(r.status == RunStatus::kernel_exception);
  CHECK_MESSAGE(r.message.find("inline_ptx_misaligned.cu:7: misaligned address: a 16-byte st") !=
                    std::string::npos,
                r.message);
  CHECK(r.message.find("CUDA_ERROR_MISALIGNED_ADDRESS") != std::string::npos);
}

TEST_CASE("a macro's PTX warpsim does not run stops the launch at the macro's use, naming it") {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("inline_ptx_macro_unsupported.cu",
                                                "ptx_macro_unsupported", 32, {"u32[32]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  CHECK(r.status == RunStatus::kernel_exception);
  CHECK_MESSAGE(contains(r.message, "inline_ptx_macro_unsupported.cu:11: inline PTX is not "
                                    "simulated (ld.shared.u32 %0, [%1]): only generic and .global "
                                    "addresses with cache hints are run for ld (not .shared)"),
                r.message);
  // The stringized qualifier (.shared) is named where it is used.
  request.kernel = "ptx_macro_hint_unsupported";
  const KernelFileResult hinted = run_kernel_file(request);
  CHECK(hinted.status == RunStatus::kernel_exception);
  CHECK_MESSAGE(contains(hinted.message, "inline_ptx_macro_unsupported.cu:17: inline PTX is not "
                                         "simulated (ld.shared): only the cache hints and "
                                         ".global(.nc) are run"),
                hinted.message);
}

namespace {
bool toolkit_has_cub() {
  for (const char* root : {"CUDA_HOME", "CUDA_PATH"}) {
    const char* dir = std::getenv(root);
    if (dir != nullptr && fs::exists(std::string(dir) + "/include/cccl/cub/version.cuh")) return true;
  }
  return fs::exists("/usr/local/cuda/include/cccl/cub/version.cuh");
}
}  // namespace

TEST_CASE("the toolkit's cub runs unmodified: warp and block reductions and scans") {
  if (!toolkit_has_cub()) {
    MESSAGE("skipped: no CUDA toolkit with include/cccl/cub (set CUDA_HOME)");
    return;
  }
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("cub_algorithms.cu", "cub_warp", 32,
                        {"i32[32]:random:5:-100:100", "i32[67]:zeros", "f32[1]:zeros"});
  const KernelFileResult warp = run_kernel_file(request);
  REQUIRE_MESSAGE(warp.status == RunStatus::completed, warp.message << "\n" << warp.details);
  CHECK(warp.trace.diagnostics.empty());
  const std::vector<int> in = warp.buffer<int>(0);
  const std::vector<int> out = warp.buffer<int>(1);
  int sum = 0, partial_max = in[0];
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    CHECK(out[4 + 2 * lane] == sum);  // exclusive
    sum += in[lane];
    CHECK(out[3 + 2 * lane] == sum);  // inclusive
    if (lane < 20) partial_max = std::max(partial_max, in[lane]);
  }
  CHECK(out[0] == sum);
  CHECK(out[1] == partial_max);
  CHECK(warp.buffer<float>(2)[0] == 0.5f * static_cast<float>(sum));  // exact: halves of small ints
  // cub's shuffles are warp steps at the lines of cub's own headers.
  REQUIRE_FALSE(warp.trace.steps.empty());
  std::size_t in_cub = 0;
  for (const TraceStep& step : warp.trace.steps) {
    const SourceLine& where = step.where[static_cast<std::size_t>(std::countr_zero(step.participants))];
    if (warp.trace.files.at(where.file).find("/cub/") != std::string::npos) ++in_cub;
  }
  CHECK(in_cub >= 5 + 5 + 5 + 5);  // int sum, float sum, partial max, the scans' steps

  request.kernel = "cub_block";
  request.block = {128};
  request.args.clear();
  for (const char* spec : {"i32[128]:random:5:-100:100", "i32[129]:zeros"}) {
    request.args.push_back(*parse_arg_spec(spec));
  }
  const KernelFileResult block = run_kernel_file(request);
  REQUIRE_MESSAGE(block.status == RunStatus::completed, block.message << "\n" << block.details);
  CHECK(block.trace.diagnostics.empty());
  const std::vector<int> block_in = block.buffer<int>(0);
  const std::vector<int> block_out = block.buffer<int>(1);
  int prefix = 0;
  for (int i = 0; i < 128; ++i) {
    CAPTURE(i);
    CHECK(block_out[1 + i] == prefix);
    prefix += block_in[i];
  }
  CHECK(block_out[0] == prefix);
}

namespace {
// Sets an environment variable for a scope, restoring what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

// The host compilers to try a cub kernel with: the default, and clang++ when installed (cub's
// "=h" constraints, in macros, once stopped clang before the macros' asm was translated).
std::vector<std::string> cub_compilers() {
  std::vector<std::string> compilers{""};
  if (std::system("command -v clang++ >/dev/null 2>&1") == 0) compilers.emplace_back("clang++");
  return compilers;
}
}  // namespace

TEST_CASE("cub's block loads and stores and its cache-hinted ThreadLoad/ThreadStore run") {
  if (!toolkit_has_cub()) {
    MESSAGE("skipped: no CUDA toolkit with include/cccl/cub (set CUDA_HOME)");
    return;
  }
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = one_block_request("cub_load_store.cu", "cub_load_store", 128,
                        {"i32[512]:random:3:-1000:1000", "i32[512]:zeros", "i32[512]:zeros",
                         "u32[2048]:zeros"});
  for (const std::string& compiler : cub_compilers()) {
    CAPTURE(compiler);
    std::optional<ScopedEnv> cxx;
    if (!compiler.empty()) cxx.emplace("WARPSIM_CXX", compiler.c_str());
    const KernelFileResult r = run_kernel_file(request);
    REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message << "\n" << r.details);
    CHECK(r.trace.diagnostics.empty());
    const std::vector<int> in = r.buffer<int>(0);
    const std::vector<int> direct = r.buffer<int>(1);
    const std::vector<int> transposed = r.buffer<int>(2);
    const std::vector<unsigned> hinted = r.buffer<unsigned>(3);
    for (int i = 0; i < 512; ++i) {
      CAPTURE(i);
      CHECK(direct[i] == in[i] + 1);
      CHECK(transposed[i] == 2 * in[i]);
    }
    const auto word = [&](std::size_t i) { return static_cast<unsigned>(in[i]); };
    for (unsigned t = 0; t < 128; ++t) {
      CAPTURE(t);
      const unsigned* mine = &hinted[16 * t];
      const unsigned w0 = word(4 * t);
      CHECK(mine[0] == w0 + t);
      CHECK(mine[1] == ((w0 + t) & 0xffffu));
      CHECK(mine[2] == ((w0 + t) & 0xffu));
      const unsigned long long wide = (static_cast<unsigned long long>(word(4 * t + 1)) << 32 | w0) + t;
      CHECK(mine[3] == 0u);
      CHECK(mine[4] == static_cast<unsigned>(wide));
      CHECK(mine[5] == static_cast<unsigned>(wide >> 32));
      CHECK(mine[6] == 0u);
      CHECK(mine[7] == 0u);
      for (unsigned k = 0; k < 4; ++k) CHECK(mine[8 + k] == word(4 * t + k) + t);
      for (unsigned k = 12; k < 16; ++k) CHECK(mine[k] == 7u - t);
    }
  }
}

TEST_CASE("PTX that cub writes and warpsim does not run stops the launch, naming cub's line") {
  if (!toolkit_has_cub()) {
    MESSAGE("skipped: no CUDA toolkit with include/cccl/cub (set CUDA_HOME)");
    return;
  }
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest request = 
      one_block_request("cub_algorithms.cu", "cub_thread_exit", 32, {"i32[32]:zeros"});
  const KernelFileResult r = run_kernel_file(request);
  CHECK(r.status == RunStatus::kernel_exception);
  const std::string text = r.message + "\n" + r.details;
  CHECK_MESSAGE(contains(text, "cub/util_ptx.cuh:"), text);
  CHECK_MESSAGE(contains(text, "inline PTX is not simulated (exit): no such instruction"), text);
}
