// `warpsim exec` end to end on the whole-program corpus (tests/programs/*.cu): every program runs
// in the simulator, prints PASSED and exits 0, and where a GPU recording exists
// (recorded/<name>.txt, written by record_gpu.sh) prints exactly what the GPU printed and exits
// as it did. Then the cases exec must handle: bad input, a program that never ends, a mask
// misuse, a crash, arguments and exit status, --trace and --json, `run --kernel` on a program.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_warpsim.hpp"
#include "support/scratch_dir.hpp"
#include "warpsim/trace.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using warpsim::test::ProcessOutcome;
using warpsim::test::read_text;

namespace {

const fs::path kPrograms = fs::path(WARPSIM_SOURCE_DIR) / "tests/programs";
const fs::path kCases = kPrograms / "cases";


const fs::path& scratch() {
  static const warpsim::test::ScratchDir dir("warpsim-program-test");
  REQUIRE_FALSE(dir.path().empty());
  return dir.path();
}

ProcessOutcome run_warpsim(const std::vector<std::string>& args) {
  std::vector<std::string> argv{WARPSIM_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return warpsim::test::run_process(argv, scratch());
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kPrograms)) {
    if (entry.path().extension() == ".cu") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A recording: "# key: value" header lines, "# exit status: N", then the program's stdout.
struct Recording {
  int exit_status = -1;
  std::string stdout_text;
};

std::optional<Recording> recording_of(const fs::path& program) {
  const fs::path file = kPrograms / "recorded" / (program.stem().string() + ".txt");
  if (!fs::exists(file)) return std::nullopt;
  std::istringstream in(read_text(file));
  Recording recording;
  std::string line;
  std::streampos body = 0;
  while (in.peek() == '#' && std::getline(in, line)) {
    if (line.rfind("# exit status: ", 0) == 0) recording.exit_status = std::stoi(line.substr(15));
    body = in.tellg();
  }
  recording.stdout_text = read_text(file).substr(static_cast<std::size_t>(body));
  return recording;
}

}  // namespace

TEST_CASE("the corpus has at least 15 programs, each checking itself") {
  CHECK(corpus().size() >= 15);
  for (const fs::path& program : corpus()) {
    CAPTURE(program);
    const std::string source = read_text(program);
    CHECK(contains(source, "int main("));
    CHECK(contains(source, "<<<"));
  }
}

TEST_CASE("every corpus program passes its own check under warpsim exec") {
  for (const fs::path& program : corpus()) {
    SUBCASE(program.filename().string().c_str()) {
      // cub's device-wide algorithms run on a CUDA toolkit's CCCL (README, cub), not on a
      // distribution's older cub alone.
      if (contains(read_text(program), "#include <cub/cub.cuh>") &&
          !fs::exists("/usr/local/cuda/include/cccl/cub/version.cuh") &&
          std::getenv("CUDA_HOME") == nullptr) {
        MESSAGE("skipped " << program.filename() << ": no CUDA toolkit at /usr/local/cuda");
        continue;
      }
      const ProcessOutcome run = run_warpsim({"exec", program.string()});
      INFO("stdout:\n" << run.out);
      INFO("stderr:\n" << run.err);
      CHECK(run.exit_code == 0);
      CHECK(contains(run.out, "PASSED\n"));
      CHECK_FALSE(contains(run.out, "FAILED"));
      CHECK(contains(run.err, "warpsim exec: " + program.filename().string() + ": "));
      CHECK(contains(run.err, "the program exited with status 0"));
      if (program.filename() == "cub_device.cu") {
        // cub launches every kernel in Thrust's header; each is listed at the user's call.
        CHECK(contains(run.err, "2. cub::DeviceReduceKernel<<<49, 256>>>  cub_device.cu:61  "));
        CHECK(contains(run.err, "cub::DeviceRadixSortOnesweepKernel<<<23, 384>>>  cub_device.cu:95  "));
      }
      // device_vector's storage included: Thrust's CPP system allocates the simulated
      // device's memory (sim/shim/thrust/system/cpp/memory_resource.h), which cudaMemcpy names.
      CHECK_FALSE(contains(run.err, "warning:"));
      CHECK_FALSE(contains(run.err, "refused"));
      if (const std::optional<Recording> gpu = recording_of(program)) {
        CHECK_MESSAGE(run.out == gpu->stdout_text, "stdout differs from the GPU's recording");
        CHECK(run.exit_code == gpu->exit_status);
      }
    }
  }
}

TEST_CASE("a missing file is bad input: one message, exit 125") {
  const ProcessOutcome run = run_warpsim({"exec", (kPrograms / "no_such_program.cu").string()});
  CHECK(run.exit_code == 125);
  CHECK(contains(run.err, "no_such_program.cu"));
  CHECK(run.out.empty());
}

TEST_CASE("a compile error shows the compiler's own message with the file's line, exit 125") {
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "compile_error.cu").string()});
  CHECK(run.exit_code == 125);
  CHECK(contains(run.err, "compile_error.cu:10"));
  CHECK(contains(run.err, "undeclared_variable"));
  CHECK(contains(run.err, "did not compile"));
}

TEST_CASE("a CUDA library's call stops the program at run time, naming it and the line") {
  if (!fs::exists("/usr/local/cuda/include/cublas_v2.h")) {
    MESSAGE("no CUDA toolkit at /usr/local/cuda: cuBLAS's header cannot compile here");
    return;
  }
  const ProcessOutcome called = run_warpsim({"exec", (kCases / "uses_cublas.cu").string()});
  INFO(called.err);
  CHECK(called.exit_code == 123);
  CHECK(contains(called.err, "1. scale<<<2, 32>>>"));  // the kernel before it ran
  CHECK(contains(called.err, "cuBLAS is not simulated: cublasCreate_v2 at uses_cublas.cu:33"));
  CHECK_FALSE(contains(called.out, "PASSED"));

  const ProcessOutcome never = run_warpsim(
      {"exec", "-D", "NEVER_CALLED", (kCases / "uses_cublas.cu").string()});
  CHECK_MESSAGE(never.exit_code == 0, never.err);
  CHECK(contains(never.out, "PASSED"));
}

TEST_CASE("__WARPSIM__ keeps a library out of the simulator's build") {
  const ProcessOutcome guarded =
      run_warpsim({"exec", "-D", "GUARD", (kCases / "uses_cublas.cu").string()});
  CHECK_MESSAGE(guarded.exit_code == 0, guarded.err);
  CHECK(contains(guarded.out, "PASSED"));
}

TEST_CASE("cudaMalloc takes a pointer to a pointer to const, as CUDA's template does") {
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "const_pointer_malloc.cu").string()});
  CHECK_MESSAGE(run.exit_code == 0, run.err);
  CHECK(contains(run.out, "62\n"));
}

TEST_CASE("a runtime API warpsim does not simulate stops the program when reached, exit 123") {
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "calls_unsimulated.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 123);
  CHECK(contains(run.out, "before the array\n"));
  CHECK_FALSE(contains(run.out, "PASSED"));
  CHECK(contains(run.err, "a mipmapped CUDA array is not simulated: cudaMallocMipmappedArray at "
                                 "calls_unsimulated.cu:16"));

  const ProcessOutcome not_reached =
      run_warpsim({"exec", (kCases / "calls_unsimulated.cu").string(), "--", "1", "2", "3", "4"});
  CHECK_MESSAGE(not_reached.exit_code == 0, not_reached.err);
  CHECK(contains(not_reached.out, "PASSED"));
}

TEST_CASE("CUDA 12's graph node parameters and pool allocations compile; a conditional node stops") {
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "graph_conditional.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 123);
  CHECK(contains(run.out, "type 0, func null\nallocated from the pool\n"));
  CHECK_FALSE(contains(run.out, "PASSED"));
  CHECK(contains(run.err, "a conditional graph node is not simulated: "
                          "cudaGraphConditionalHandleCreate at graph_conditional.cu:22"));
}

TEST_CASE("a device-side assert stops its launch; the program goes on with cudaErrorAssert") {
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "device_assert.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == "first: cudaSuccess\nsecond: cudaErrorAssert (device-side assert triggered)\n"
                   "after: cudaErrorAssert cudaErrorAssert\n");
  CHECK(contains(run.err, "device_assert.cu:7: void check_below(const int*, int): block: [0,0,0], "
                          "thread: [2"));
  CHECK(contains(run.err, "Assertion `values[threadIdx.x] < limit` failed."));
  CHECK(contains(run.err, "device_assert"));  // the launch's status in the report
}

TEST_CASE("texture references over linear memory: cudaBindTexture, tex1Dfetch; tex2D stops") {
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "texture_reference.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == "PASSED\n");
  const ProcessOutcome stopped =
      run_warpsim({"exec", (kCases / "texture_reference.cu").string(), "--", "2d"});
  CHECK(stopped.exit_code == 123);
  CHECK(contains(stopped.err, "texture_reference.cu:18: tex2D reads a texture reference that no "
                              "cudaBindTextureToArray or cudaBindTexture2D bound"));
}

TEST_CASE("exec --Xcompiler passes flags to the host compiler and the link (OpenMP)") {
  const std::string program = (kCases / "openmp_host.cu").string();
  const ProcessOutcome run = run_warpsim({"exec", "--Xcompiler=-fopenmp", program});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == "14 14 14 14\n");
  const ProcessOutcome without = run_warpsim({"exec", program});
  CHECK(without.exit_code == 125);
  CHECK(contains(without.err, "omp_get_thread_num"));
}

TEST_CASE("exec --Xlinker passes flags to the link: --gc-sections drops host code nothing reaches") {
  const std::string program = (kCases / "unreached_host_code.cu").string();
  const ProcessOutcome run = run_warpsim(
      {"exec", "--Xcompiler=-ffunction-sections", "--Xlinker=--gc-sections", program});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == "2 62\n");
  const ProcessOutcome without = run_warpsim({"exec", program});
  CHECK(without.exit_code == 125);
  CHECK(contains(without.err, "project_log"));
}

TEST_CASE("a kernel that spins on a flag nobody sets is named as a livelock and stops the program") {
  const ProcessOutcome run =
      run_warpsim({"exec", "--time-limit", "20", (kCases / "spin_forever.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 123);
  CHECK(run.seconds < 20);
  CHECK(contains(run.out, "waiting\n"));  // what it printed before passed through
  CHECK_FALSE(contains(run.out, "PASSED"));
  CHECK(contains(run.err, "launch 1 (waitForFlag at spin_forever.cu:16)"));
  CHECK(contains(run.err, "livelock in block 0: lane 0 of warp 0 spun without progress at spin_forever.cu:7"));
}

TEST_CASE("at the time limit a running launch stops and keeps what it found; long loops are no "
          "livelock") {
  // 256 threads a block, each computing 2^40 iterations after a race on data[0]: a budget for the
  // whole block once named this a livelock; killed at the time limit, the race was lost.
  const ProcessOutcome run = run_warpsim({"exec", "--check", "races", "--time-limit", "3",
                                          (kCases / "race_then_long_loop.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 124);
  CHECK_FALSE(contains(run.out, "PASSED"));
  CHECK(contains(run.err, "racyThenLong<<<4, 256>>>  race_then_long_loop.cu:17"));
  CHECK(contains(run.err, "time_limit: the time limit passed while block 0 ran: the launch was "
                          "stopped there, with what it had found so far; lanes 0-31 of warps "
                          "0-7 were looping at race_then_long_loop.cu:8"));
  CHECK(contains(run.err, "data_race at race_then_long_loop.cu:6"));
  CHECK(contains(run.err, "did not finish within the time limit of 3 s (--time-limit): warpsim "
                          "stopped it at launch 1 (racyThenLong at race_then_long_loop.cu:17), "
                          "keeping what that launch had found"));
  CHECK_FALSE(contains(run.err, "livelock"));
  CHECK_FALSE(contains(run.err, "timeout at"));  // the stop is the launch's status, said once
}

TEST_CASE("kernels launched from kernels run after their parent grid, each listed with its parent") {
  // Before, a device-side launch stopped the parent's launch (dynamic parallelism was not
  // simulated); run in place it had shared the parent block's __shared__ variables, or hung.
  for (const char* jobs : {"1", "2"}) {
    CAPTURE(jobs);
    const ProcessOutcome run = run_warpsim({"exec", "--jobs", jobs, "--time-limit", "60", "--json",
                                            (scratch() / "dynamic_parallelism.json").string(),
                                            (kPrograms / "dynamic_parallelism.cu").string()});
    INFO(run.out);
    INFO(run.err);
    CHECK(run.exit_code == 0);
    CHECK(contains(run.out, "block 1: stream order 0 10 20 30, its tail launch saw 12 of 12 appends"));
    CHECK(contains(run.out, "PASSED"));
    // Launch 1 is tree_sum from the host; its two children come next, each before the other's
    // subtree (a child completes with its own children). The text report (stderr) is written
    // when --json is not given.
    const ProcessOutcome text = run_warpsim({"exec", "--jobs", jobs, "--time-limit", "60",
                                             (kPrograms / "dynamic_parallelism.cu").string()});
    INFO(text.err);
    CHECK(text.exit_code == 0);
    CHECK(contains(text.err, "1. tree_sum<<<1, 2>>>"));
    CHECK(contains(text.err, "2. tree_sum<<<1, 2>>>"));
    CHECK(contains(text.err, "completed  (launched by launch 1, depth 1)"));
    CHECK(contains(text.err, "(launched by launch 2, depth 2)"));
    const json report = json::parse(read_text(scratch() / "dynamic_parallelism.json"));
    // 1 + 2 + 4 + ... : every grid of the tree but its 37 leaves launches two: 73 grids,
    // then launcher, its 3 x 4 appends and 3 tail launches.
    const json& launches = report["launches"];
    REQUIRE(launches.size() == 73 + 1 + 12 + 3);
    CHECK_FALSE(launches[0].contains("parent"));
    CHECK(launches[1]["parent"] == 0);
    CHECK(launches[1]["depth"] == 1);
    const json& launcher = launches[73];
    CHECK(launcher["kernel"] == "launcher");
    CHECK_FALSE(launcher.contains("parent"));
    // Block 0's four appends, then block 1's, block 2's, then the three tail launches.
    for (int i = 0; i < 12; ++i) {
      CAPTURE(i);
      CHECK(launches[74 + i]["kernel"] == "append");
      CHECK(launches[74 + i]["parent"] == 73);
    }
    for (int i = 0; i < 3; ++i) CHECK(launches[86 + i]["kernel"] == "after_parent");
  }
}

TEST_CASE("a launch nested more than 24 grids deep is refused, as CUDA refuses it, and listed") {
  const ProcessOutcome run = run_warpsim(
      {"exec", "--time-limit", "60", (kCases / "nesting_too_deep.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(contains(run.out, "the launch from depth 24 was refused: cudaErrorLaunchMaxDepthExceeded; "
                          "the host's synchronize: cudaSuccess\nPASSED"));
  CHECK(contains(run.err, "warpsim exec: nesting_too_deep.cu: 26 launches"));
  CHECK(contains(run.err, "26. dive<<<1, 1>>>  nesting_too_deep.cu:9  0 steps  refused: "
                          "cudaErrorLaunchMaxDepthExceeded: it would be nested 25 grids deep, and "
                          "CUDA nests at most 24"));
  CHECK(contains(run.err, "(launched by launch 25, depth 25)"));
}

TEST_CASE("cudaDeviceSynchronize in kernel code (gone in CUDA 12) stops the program, naming it") {
  const ProcessOutcome run = run_warpsim(
      {"exec", "--time-limit", "60", (kCases / "device_synchronize.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 123);
  CHECK_FALSE(contains(run.out, "PASSED"));
  CHECK(contains(run.err, "waiting for child grids in kernel code (removed from device code in "
                          "CUDA 12's dynamic parallelism) is not simulated: cudaDeviceSynchronize "
                          "at device_synchronize.cu:11"));
}

TEST_CASE("a program that never ends in host code stops at the time limit and says where") {
  const ProcessOutcome run =
      run_warpsim({"exec", "--time-limit", "2", (kCases / "host_spin.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 124);
  CHECK(run.seconds < 30);
  CHECK(contains(run.out, "waiting\n"));
  CHECK_FALSE(contains(run.out, "PASSED"));
  CHECK(contains(run.err, "time limit of 2 s"));
  CHECK(contains(run.err, "in host code, after launch 1"));
}

TEST_CASE("a kernel's mask misuse is in the report and makes the exit status 123") {
  const fs::path report = scratch() / "mask_misuse.json";
  const ProcessOutcome text = run_warpsim({"exec", (kCases / "mask_misuse.cu").string()});
  INFO(text.err);
  CHECK(text.exit_code == 123);
  CHECK(contains(text.out, "PASSED"));  // the program cannot see it
  CHECK(contains(text.err, "1 diagnostic"));
  CHECK(contains(text.err, "mask_misuse.cu:11"));
  CHECK(contains(text.err, "__shfl_down_sync"));

  const ProcessOutcome quiet =
      run_warpsim({"exec", "--json", report.string(), (kCases / "mask_misuse.cu").string()});
  CHECK(quiet.exit_code == 123);
  CHECK(quiet.err.empty());
  const json object = json::parse(read_text(report));
  CHECK(object["status"] == "exited");
  CHECK(object["exit_code"] == 0);
  CHECK(object["warpsim_exit_status"] == 123);
  REQUIRE(object["launches"].size() == 1);
  const json& launch = object["launches"][0];
  CHECK(launch["kernel"] == "halfWarpSum");
  CHECK(launch["grid"] == json::array({1, 1, 1}));
  CHECK(launch["block"] == json::array({32, 1, 1}));
  REQUIRE(launch["diagnostics"].size() >= 1);
  CHECK(launch["diagnostics"][0]["line"] == 11);
}

TEST_CASE("a crash in a kernel names the launch and the lane, exit 128 + signal") {
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "kernel_crash.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 128 + 11);
  CHECK(contains(run.err, "signal 11"));
  CHECK(contains(run.err, "during launch 1 (writeNull at kernel_crash.cu:12), block 0 thread 0"));
}

TEST_CASE("a kernel stepping outside a cudaMalloc'd block names the argument and element") {
  // A read past the end: the guard page after the block faults; the read is recorded (lane,
  // line, element), gives zeros and the launch goes on, as a GPU's would; exit 122.
  const ProcessOutcome after = run_warpsim({"exec", (kCases / "outside_allocation.cu").string()});
  INFO(after.err);
  CHECK(after.exit_code == 122);
  CHECK(after.out == "out[0] = 0\n");
  CHECK(contains(after.err, "out_of_bounds at outside_allocation.cu:17 (block 1, warp 0, lanes 0)"));
  CHECK(contains(after.err, "out-of-bounds read after the end of argument 0 of the launch (its "
                            "256-byte allocation, elements of 4 bytes): element 64, 1 read (the "
                            "first by thread 0 of block 1)"));

  // A write there still stops the program: the crash names the argument.
  const ProcessOutcome write =
      run_warpsim({"exec", (kCases / "outside_allocation.cu").string(), "--", "write-after"});
  INFO(write.err);
  CHECK(write.exit_code == 128 + 11);
  CHECK(contains(write.err, "during launch 1 (writeAhead at outside_allocation.cu:34), block 1 "
                            "thread 0"));
  CHECK(contains(write.err, "out-of-bounds access of element 64 of argument 0 of the launch "
                            "(its 256-byte allocation, elements of 4 bytes)"));

  // Before the start: no page can guard it; the bytes there changed, found after the launch.
  const ProcessOutcome before =
      run_warpsim({"exec", (kCases / "outside_allocation.cu").string(), "--", "before"});
  INFO(before.err);
  CHECK(before.exit_code == 122);  // it returned 0, and a kernel wrote outside its allocation
  CHECK(before.out == "out[0] = 1\n");
  CHECK(contains(before.err, "out_of_bounds"));
  CHECK(contains(before.err, "out-of-bounds write before argument 0 of the launch (its 256-byte "
                             "allocation, elements of 4 bytes): element -1 changed"));
}

TEST_CASE("exec --check names races in cudaMalloc'd blocks and __shared__ memory, exit 122") {
  const std::string program = (kCases / "lost_update.cu").string();
  // Without a check the lost update hides: the default order on one worker thread gives the
  // right count (blocks on several threads race for real: 128 on a 16-core machine).
  const ProcessOutcome plain = run_warpsim({"exec", program, "--jobs", "1"});
  CHECK(plain.exit_code == 0);
  CHECK(plain.out == "total: 256\n");

  const fs::path report = scratch() / "lost_update.json";
  const ProcessOutcome global =
      run_warpsim({"exec", program, "--check", "races", "--jobs", "1", "--json", report.string()});
  INFO(global.err);
  CHECK(global.exit_code == 122);
  CHECK(global.out == "total: 256\n");
  const json object = json::parse(read_text(report));
  CHECK(object["warpsim_exit_status"] == 122);
  REQUIRE(object["launches"].size() == 1);
  const json& diagnostics = object["launches"][0]["diagnostics"];
  REQUIRE(diagnostics.size() == 2);
  for (const json& d : diagnostics) {
    CHECK(d["kind"] == "data_race");
    CHECK(contains(d["message"], "element 0 of argument 1 of the launch"));
  }
  CHECK(diagnostics[0]["line"] == 15);  // the leader's read
  CHECK(diagnostics[1]["line"] == 18);  // its write

  const ProcessOutcome shared = run_warpsim({"exec", program, "--check", "all", "--", "shared"});
  INFO(shared.err);
  CHECK(shared.exit_code == 122);
  CHECK(contains(shared.err, "data_race at lost_update.cu:26"));
  CHECK(contains(shared.err, "data race on s[1] (shared memory)"));
  CHECK(contains(shared.err, "exit status 122"));

  // A clean program under every check: nothing found, its own status.
  const ProcessOutcome clean =
      run_warpsim({"exec", (kPrograms / "warp_reduce.cu").string(), "--check", "all"});
  CHECK(clean.exit_code == 0);
  CHECK(contains(clean.err, "0 diagnostics"));

  CHECK(run_warpsim({"exec", program, "--check", "everything"}).exit_code == 2);
}

TEST_CASE("exec --check uninit names reads of cudaMalloc'd bytes nothing wrote, and no other read") {
  // Two bugs (bins never zeroed, a copy one element short); nine launches that read memory a
  // kernel, Thrust's host code, cudaMemset, cudaMemcpy2D or host code (managed) wrote.
  const fs::path report = scratch() / "uninitialized_global.json";
  const ProcessOutcome run =
      run_warpsim({"exec", "--check", "uninit", (kCases / "uninitialized_global.cu").string(),
                   "--json", report.string()});  // --check before the file: one value
  INFO(run.err);
  CHECK(run.exit_code == 122);
  CHECK(run.out == "flag 1\n");
  const json object = json::parse(read_text(report));
  REQUIRE(object["launches"].size() == 10);
  std::vector<std::string> found;
  for (const json& launch : object["launches"]) {
    for (const json& d : launch["diagnostics"]) {
      found.push_back(d["kind"].get<std::string>() + " line " + std::to_string(d["line"].get<int>()));
    }
  }
  CHECK(found == std::vector<std::string>{"uninitialized_global_read line 17",
                                          "uninitialized_global_read line 21"});
  const json& bins = object["launches"][0]["diagnostics"][0];
  CHECK(contains(bins["message"], "reads element 0 of argument 2 of the launch"));
  CHECK(contains(bins["message"], "which nothing has written since it was allocated"));
  CHECK(contains(object["launches"][1]["diagnostics"][0]["message"],
                 "thread 231 (warp 7, lane 7) of block 3 reads element 999 of argument 0"));

  // Without the check the memory starts as zeros: the program runs as it always did.
  const ProcessOutcome plain = run_warpsim({"exec", (kCases / "uninitialized_global.cu").string()});
  CHECK(plain.exit_code == 0);
  CHECK(contains(plain.err, "0 diagnostics"));
}

TEST_CASE("exec --check uninit names a store of a local nothing set, with its lanes and line") {
  // The fill kernel's one 0xfefefefe was stored by a lane that set it (reported, wrongly, as the
  // README says such a value is; one lane at line 15), the pick kernel's by lanes 16-31 that never
  // set `best` (line 12).
  const fs::path report = scratch() / "unset_local.json";
  const ProcessOutcome run = run_warpsim(
      {"exec", "--check", "uninit", (kCases / "unset_local.cu").string(), "--json", report.string()});
  INFO(run.err);
  CHECK(run.exit_code == 122);
  CHECK(run.out == "out[1] 2\n");
  const json object = json::parse(read_text(report));
  REQUIRE(object["launches"].size() == 2);
  const json& pick = object["launches"][0]["diagnostics"];
  REQUIRE(pick.size() == 1);
  CHECK(pick[0]["kind"] == "uninitialized_local_stored");
  CHECK(pick[0]["line"] == 12);
  CHECK(contains(pick[0]["message"], "lanes 16-31 of warp 0 of block 0 store values nothing assigned"));
  CHECK(contains(pick[0]["message"], "0xfefefefe"));
  const json& fill = object["launches"][1]["diagnostics"];
  REQUIRE(fill.size() == 1);
  CHECK(fill[0]["line"] == 15);
  CHECK(fill[0]["lanes"] == "0x00000008");

  const ProcessOutcome plain = run_warpsim({"exec", (kCases / "unset_local.cu").string()});
  CHECK(plain.exit_code == 0);
  CHECK(contains(plain.err, "0 diagnostics"));
}

TEST_CASE("exec --check uninit: a crash from an index read in undefined memory names that read") {
  const ProcessOutcome run = run_warpsim(
      {"exec", "--check", "uninit", (kCases / "uninitialized_index.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 128 + 11);
  CHECK(contains(run.err, "during launch 1 (gather at uninitialized_index.cu:23)"));
  CHECK(contains(run.err, "before the crash, thread 0 (warp 0, lane 0) of block 0 reads element 0 "
                          "of argument 0 of the launch"));
  CHECK(contains(run.err, "at uninitialized_index.cu:11, which nothing has written since it was "
                          "allocated"));
  CHECK(contains(run.err, "a value read there may be the address that faulted"));
}

TEST_CASE("exec --schedules shows the lost update that the default order hides, naming the schedule") {
  const std::string program = (kCases / "lost_update.cu").string();
  // One worker thread: blocks on several threads would race for real on the lost update, and
  // schedule 1's total would depend on the machine (192 on a 16-core one).
  const ProcessOutcome run = run_warpsim({"exec", program, "--schedules", "2", "--jobs", "1"});
  INFO(run.err);
  CHECK(run.exit_code == 122);
  CHECK(run.out == "total: 256\n");  // schedule 1's output passes through
  CHECK(contains(run.err, "2. --policy maximal --order-seed 1: exited with status 0"));
  CHECK(contains(run.err, "its output differs from schedule 1's"));
  CHECK(contains(run.err, "rerun schedule 2 alone with --policy maximal --order-seed 1"));
  const ProcessOutcome alone = run_warpsim({"exec", program, "--policy", "maximal", "--order-seed", "1"});
  CHECK(alone.exit_code == 0);
  CHECK(alone.out != "total: 256\n");
}

TEST_CASE("exec --check bounds stops at an access outside a cudaMalloc'd block, naming lane and line") {
  const std::string program = (kCases / "outside_allocation.cu").string();
  const ProcessOutcome after = run_warpsim({"exec", program, "--check", "bounds"});
  INFO(after.err);
  CHECK(after.exit_code == 123);  // the launch could not complete: no fault, no lost findings
  CHECK(contains(after.err, "out_of_bounds at outside_allocation.cu:17 (block 1, warp 0, lanes 0)"));
  CHECK(contains(after.err, "read of element 64 of argument 0 of the launch"));
  const ProcessOutcome before = run_warpsim({"exec", program, "--check", "bounds", "--", "before"});
  INFO(before.err);
  CHECK(before.exit_code == 123);
  CHECK(contains(before.err, "out_of_bounds at outside_allocation.cu:12 (block 0, warp 0, lanes 0)"));
  CHECK(contains(before.err, "write of element -1 of argument 0 of the launch"));
}

TEST_CASE("program arguments and the exit status pass through; stderr too") {
  const ProcessOutcome run =
      run_warpsim({"exec", (kCases / "args_and_status.cu").string(), "--", "one", "--two", "3"});
  CHECK(run.exit_code == 3);
  CHECK(run.out == "arg 1: one\narg 2: --two\narg 3: 3\n");
  CHECK(contains(run.err, "to stderr: 4\n"));
  CHECK(contains(run.err, "the program exited with status 3"));
  CHECK(run_warpsim({"exec", (kCases / "args_and_status.cu").string()}).exit_code == 0);
}

TEST_CASE("-D and -I reach the compiler") {
  const fs::path dir = scratch() / "include_me";
  fs::create_directories(dir);
  {
    std::ofstream(dir / "value.h") << "#define VALUE_FROM_HEADER 40\n";
    std::ofstream(scratch() / "defines.cu")
        << "#include <cstdio>\n#include \"value.h\"\n"
           "__global__ void add(int* out) { atomicAdd(out, EXTRA); }\n"
           "int main() { int* out; cudaMallocManaged(&out, sizeof(int)); *out = "
           "VALUE_FROM_HEADER;\n"
           "  add<<<1, 2>>>(out); cudaDeviceSynchronize(); std::printf(\"%d\\n\", *out); return 0; "
           "}\n";
  }
  const ProcessOutcome run = run_warpsim(
      {"exec", "-I", dir.string(), "-D", "EXTRA=1", (scratch() / "defines.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == "42\n");
}

TEST_CASE("a user's header launches as the file does: -I folders, errors at its lines, edits") {
  const fs::path dir = scratch() / "header_launches";
  const fs::path inc = dir / "inc";
  fs::create_directories(inc);
  const auto write_header = [&](int value, const std::string& extra) {
    std::ofstream(inc / "launcher.cuh")
        << "#pragma once\n"
           "__global__ void put(int* out, int v) { out[threadIdx.x] = v; }\n"
           "#define PUT(k, out) \\\n  k<<<1, 32>>>(out, "
        << value << ")\n"
        << "inline void launch(int* out) {\n"
           "  dim3 blockDim(32);\n" << extra << "  PUT(put, out);\n}\n";
  };
  write_header(7, "");
  std::ofstream(dir / "main.cu")
      << "#include <cstdio>\n#include <launcher.cuh>\n"
         "int main() { int* out; cudaMallocManaged(&out, 32 * sizeof(int));\n"
         "  launch(out); cudaDeviceSynchronize(); std::printf(\"%d\\n\", out[31]); return 0; }\n";
  const std::string main = (dir / "main.cu").string();

  const ProcessOutcome first = run_warpsim({"exec", "-I", inc.string(), main});
  INFO(first.err);
  CHECK(first.exit_code == 0);
  CHECK(first.out == "7\n");
  CHECK(contains(first.err, "1. put<<<1, 32>>>  launcher.cuh:7"));

  write_header(8, "");  // the same size of file, another value: compiled again
  const ProcessOutcome edited = run_warpsim({"exec", "-I", inc.string(), main});
  CHECK(edited.out == "8\n");

  write_header(8, "  undeclared_in_header;\n");  // the compiler names the header's line
  const ProcessOutcome broken = run_warpsim({"exec", "-I", inc.string(), main});
  CHECK(broken.exit_code == 125);
  CHECK(contains(broken.err, (inc / "launcher.cuh").string() + ":7:"));
  CHECK(contains(broken.err, "undeclared_in_header"));
  CHECK_FALSE(contains(broken.err, "kernels/"));  // no path into the cache's copies
}

TEST_CASE("--trace writes one trace per launch, readable as warpsim run --trace writes them") {
  const fs::path dir = scratch() / "traces";
  const ProcessOutcome run =
      run_warpsim({"exec", "--trace", dir.string(), (kPrograms / "template_functors.cu").string()});
  REQUIRE(run.exit_code == 0);
  std::vector<fs::path> traces;
  for (const auto& entry : fs::directory_iterator(dir)) traces.push_back(entry.path());
  std::sort(traces.begin(), traces.end());
  REQUIRE(traces.size() == 4);
  CHECK(traces[0].filename() == "001-transform.json");
  CHECK(traces[3].filename() == "004-transform_float__Clamp_.json");

  const fs::path reduce_dir = scratch() / "reduce-traces";
  REQUIRE(
      run_warpsim({"exec", "--trace", reduce_dir.string(), (kPrograms / "warp_reduce.cu").string()})
          .exit_code == 0);
  const fs::path trace_file = reduce_dir / "001-blockSum_int__256_.json";
  REQUIRE(fs::exists(trace_file));
  const auto trace = warpsim::read_trace_json(read_text(trace_file));
  REQUIRE(trace);
  CHECK(trace->steps.size() == 1696);
  CHECK(trace->grid.x == 32);
  CHECK(trace->block.x == 256);
}

TEST_CASE("the --json report lists every launch with its kernel, shape and steps") {
  const fs::path report = scratch() / "streams.json";
  const ProcessOutcome run =
      run_warpsim({"exec", "--json", report.string(), (kPrograms / "streams_events.cu").string()});
  REQUIRE(run.exit_code == 0);
  const json object = json::parse(read_text(report));
  REQUIRE(object["launches"].size() == 2);
  for (const json& launch : object["launches"]) {
    CHECK(launch["kernel"] == "scaleThroughShared");
    CHECK(launch["shared_bytes"] == 512);
    CHECK(launch["status"] == "completed");
    CHECK(launch["steps"] == 64);
  }
}

TEST_CASE("an invalid launch is refused as on a GPU and listed in the report") {
  const ProcessOutcome run = run_warpsim({"exec", (kPrograms / "launch_errors.cu").string()});
  CHECK(run.exit_code == 0);
  CHECK(contains(run.err, "mark<<<1, 2048>>>"));
  CHECK(contains(run.err, "invalid_configuration"));
  // Under --check a refused launch is a finding, as compute-sanitizer reports its API error: a
  // program that never looks at the error (DRACC's Large_Block_Dim) would pass unnoticed.
  const ProcessOutcome checked =
      run_warpsim({"exec", "--check", "bounds", (kPrograms / "launch_errors.cu").string()});
  CHECK(checked.exit_code == 122);
  CHECK(contains(checked.err, "1 launch was refused (above: invalid_configuration, as a GPU refuses it) "
                              "and the program went on: a finding under --check"));
}

TEST_CASE("warpsim run --kernel works on a whole program: its host code compiles and is ignored") {
  const ProcessOutcome run =
      run_warpsim({"run", (kPrograms / "warp_reduce.cu").string(), "--kernel", "blockSum<int, 256>",
                   "--grid", "2", "--block", "256", "--arg", "i32[1024]:iota", "--arg",
                   "i32[1]:zeros", "--arg", "i32:1024", "--json"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const json object = json::parse(run.out);
  CHECK(object["buffers"][1]["values"] == json::array({523776}));  // 0 + 1 + ... + 1023

  const ProcessOutcome listing =
      run_warpsim({"run", (kPrograms / "cg_tile_reduce.cu").string(), "--list-kernels"});
  CHECK(listing.exit_code == 0);
  CHECK(contains(listing.out, "tileSums"));
}

TEST_CASE("exec --gpu without a GPU says so in one line and exits 3") {
  if (fs::exists("/dev/nvidia0")) {
    MESSAGE("skipped: this machine has a GPU (record_gpu.sh covers it)");
    return;
  }
  const ProcessOutcome run = run_warpsim({"exec", "--gpu", (kPrograms / "vector_add.cu").string()});
  CHECK(run.exit_code == 3);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(contains(run.err, "warpsim exec: --gpu: "));
  CHECK(run.out.empty());
}

TEST_CASE("a launch that runs away stops the program there: the launch and its step count") {
  const ProcessOutcome run =
      run_warpsim({"exec", "--max-steps", "5000", (kCases / "runaway.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 123);
  CHECK_FALSE(contains(run.out, "not reached"));
  CHECK(contains(run.err,
                 "warpsim stopped the program at launch 1 (shuffleForever at runaway.cu:16)"));
  CHECK(contains(run.err, "step_budget_exceeded"));
}

TEST_CASE("--arch picks the device path of #if __CUDA_ARCH__ and the reported compute capability") {
  const fs::path report90 = scratch() / "arch90.json", report70 = scratch() / "arch70.json";
  REQUIRE(run_warpsim({"exec", "--json", report90.string(), (kPrograms / "arch_paths.cu").string()})
              .exit_code == 0);
  REQUIRE(run_warpsim({"exec", "--arch", "sm_70", "--json", report70.string(),
                       (kPrograms / "arch_paths.cu").string()})
              .exit_code == 0);
  // sm_90: one __reduce_add_sync per warp; sm_70: five shuffles per warp.
  CHECK(json::parse(read_text(report90))["launches"][0]["steps"] == 2);
  CHECK(json::parse(read_text(report70))["launches"][0]["steps"] == 10);
  const ProcessOutcome query =
      run_warpsim({"exec", "--arch", "sm_80", (kPrograms / "device_query.cu").string()});
  CHECK(contains(query.err, "compute capability 8.0"));
  CHECK(
      run_warpsim({"exec", "--arch", "sm_99", (kPrograms / "arch_paths.cu").string()}).exit_code ==
      125);
}

TEST_CASE("a kernel given a host pointer gets a warning in the report, naming the argument; a "
          "finding under --check") {
  const fs::path report = scratch() / "host_pointer.json";
  const ProcessOutcome run = run_warpsim({"exec", (kCases / "host_pointer.cu").string()});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == "42\n");
  CHECK(contains(run.err, "warning: argument 1 points into memory no cudaMalloc"));
  REQUIRE(run_warpsim({"exec", "--json", report.string(), (kCases / "host_pointer.cu").string()})
              .exit_code == 0);
  const json object = json::parse(read_text(report));
  CHECK(object["launches"][0]["host_pointer_args"] == json::array({0}));
  CHECK(object["launches"][1]["host_pointer_args"] == json::array());
  // An H200 faults there (docs/gpu-runs/host-memory-in-kernel.txt): under --check, a finding.
  const ProcessOutcome checked =
      run_warpsim({"exec", "--check", "bounds", (kCases / "host_pointer.cu").string()});
  CHECK(checked.exit_code == 122);
  CHECK(contains(checked.err, "1 launch was given host memory (above)"));
}

// ---- programs of several files (tests/programs/multi_file: main.cpp, kernels.cu, checksum.c)

namespace {

const fs::path kMultiFile = kPrograms / "multi_file";

std::vector<std::string> multi_file_sources(const fs::path& dir = kMultiFile) {
  return {(dir / "main.cpp").string(), (dir / "kernels.cu").string(),
          (dir / "checksum.c").string()};
}

// The multi_file program with `replaced` (a file name) swapped for `text`, in a folder of its own.
fs::path multi_file_variant(const std::string& name, const std::string& replaced,
                            const std::string& text) {
  const fs::path dir = scratch() / name;
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(kMultiFile)) {
    fs::copy_file(entry.path(), dir / entry.path().filename(),
                  fs::copy_options::overwrite_existing);
  }
  std::ofstream(dir / replaced, std::ios::trunc) << text;
  return dir;
}

// `warpsim exec` on the program's three files in `dir`, and what the program prints when it passes.
ProcessOutcome exec_multi_file(const fs::path& dir) {
  std::vector<std::string> args{"exec"};
  for (const std::string& file : multi_file_sources(dir)) args.push_back(file);
  return run_warpsim(args);
}
const std::string kMultiFileOutput =
    "scales: device 3, host 2; checksum 4507503.0 (expected 4507503.0)\nPASSED\n";

std::size_t files_ending(const fs::path& dir, const std::string& extension) {
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    count += entry.path().extension() == extension;
  return count;
}

}  // namespace

TEST_CASE("a program of several files: each its own translation unit, .c built as C, one link") {
  // A decoy multi_file.h in a -I folder: each file's own folder comes first for "..." includes.
  const fs::path decoy = scratch() / "decoy-include";
  fs::create_directories(decoy);
  std::ofstream(decoy / "multi_file.h") << "#error \"the -I folder's multi_file.h was used\"\n";
  const fs::path report = scratch() / "multi_file.json";
  std::vector<std::string> args{"exec", "-I", decoy.string()};
  for (const std::string& file : multi_file_sources()) args.push_back(file);
  args.insert(args.end(), {"--json", report.string()});  // an option after the files
  const ProcessOutcome run = run_warpsim(args);
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == kMultiFileOutput);
  const json object = json::parse(read_text(report));
  CHECK(object["file"] == multi_file_sources()[0]);
  CHECK(object["files"] == json(multi_file_sources()));
  REQUIRE(object["launches"].size() == 1);
  CHECK(object["launches"][0]["kernel"] == "scale");
  CHECK(fs::path(object["launches"][0]["file"].get<std::string>()).filename() == "kernels.cu");
  CHECK(object["launches"][0]["line"] == 23);

  const ProcessOutcome text = run_warpsim(
      {"exec", multi_file_sources()[0], multi_file_sources()[1], multi_file_sources()[2]});
  CHECK(text.exit_code == 0);
  CHECK(contains(text.err, "warpsim exec: main.cpp + kernels.cu + checksum.c: 1 launch, "));
  CHECK(contains(text.err, "1. scale<<<8, 128>>>  kernels.cu:23"));
}

TEST_CASE("a program's C file calls the runtime by its C names; <...> skips its own folder") {
  // As nvcc builds it: the C compiler sees prototypes (or none), the linker finds the runtime's
  // C symbols (Rodinia's b+tree calls cudaSetDevice from main.c). Device 0 works, device 1 is an
  // invalid device, as on a machine with one GPU. A header beside the file is found by "..."
  // only (Rodinia's kmeans keeps an AIX unistd.h beside getopt.c).
  const fs::path dir = multi_file_variant(
      "multi-c-runtime", "checksum.c",
      "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n"
      "#include \"multi_file.h\"\n"
      "int cudaSetDevice(int);\nint cudaMalloc(void**, size_t);\n"
      "int cudaMemcpy(void*, const void*, size_t, int);\nint cudaFree(void*);\n"
      "int cudaDeviceSynchronize(void);\nconst char* cudaGetErrorString(int);\n"
      "double weighted_checksum(const float* values, int n) {\n"
      "  float* copy = 0; double sum = 0; int i;\n"
      "  if (cudaSetDevice(0) != 0 || cudaSetDevice(1) != 101) return -1;\n"
      "  if (strcmp(cudaGetErrorString(101), \"invalid device ordinal\") != 0) return -2;\n"
      "  if (cudaMalloc((void**)&copy, n * sizeof(float)) != 0) return -3;\n"
      "  if (cudaMemcpy(copy, values, n * sizeof(float), 1) != 0) return -4;\n"
      "  for (i = 0; i < n; ++i) sum += (double)copy[i] * (i + 1);\n"
      "  if (cudaFree(copy) != 0 || cudaDeviceSynchronize() != 0) return -5;\n"
      "  return sum;\n}\n");
  std::ofstream(dir / "unistd.h") << "#error \"the program's own unistd.h was used\"\n";
  const ProcessOutcome run = exec_multi_file(dir);
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == kMultiFileOutput);
}

TEST_CASE("a program's C file includes <cuda_runtime.h>: the runtime's C face, its enums and "
          "handles; a refused copy names the C line") {
  const fs::path dir = multi_file_variant(
      "multi-c-header", "checksum.c",
      "#include <stdlib.h>\n#include <string.h>\n#include <cuda_runtime.h>\n"
      "#include \"multi_file.h\"\n"
      "double weighted_checksum(const float* values, int n) {\n"
      "  float* copy = NULL; double sum = 0; int i; float ms = -1;\n"
      "  cudaStream_t stream; cudaEvent_t start, stop; cudaError_t error;\n"
      "  if (cudaMalloc((void**)&copy, n * sizeof(float)) != cudaSuccess) return -1;\n"
      "  if (cudaStreamCreate(&stream) != cudaSuccess) return -2;\n"
      "  cudaEventCreate(&start); cudaEventCreate(&stop);\n"
      "  cudaEventRecord(start, stream);\n"
      "  if (cudaMemcpyAsync(copy, values, n * sizeof(float), cudaMemcpyHostToDevice, stream))\n"
      "    return -3;\n"
      "  cudaEventRecord(stop, stream);\n"
      "  cudaStreamSynchronize(stream);\n"
      "  if (cudaEventElapsedTime(&ms, start, stop) != cudaSuccess || ms < 0) return -4;\n"
      "  error = cudaMemcpy(copy, values, (n + 1) * sizeof(float), cudaMemcpyHostToDevice);\n"
      "  if (error != cudaErrorInvalidValue || cudaGetLastError() != cudaErrorInvalidValue)\n"
      "    return -5;\n"
      "  if (strcmp(cudaGetErrorName(error), \"cudaErrorInvalidValue\") != 0) return -6;\n"
      "  for (i = 0; i < n; ++i) sum += (double)copy[i] * (i + 1);\n"
      "  cudaEventDestroy(start); cudaEventDestroy(stop); cudaStreamDestroy(stream);\n"
      "  if (cudaFree(copy) != cudaSuccess || cudaFree(copy) != cudaErrorInvalidValue) return -7;\n"
      "  return sum;\n}\n");
  const ProcessOutcome run = exec_multi_file(dir);
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == kMultiFileOutput);
  CHECK(contains(run.err, "4 runtime calls were refused"));  // main checks the sum twice
  CHECK(contains(run.err, "cudaMemcpy at checksum.c:17 returned cudaErrorInvalidValue: the "
                          "destination is not device memory: its "));
  CHECK(contains(run.err, "cudaFree at checksum.c:23 returned cudaErrorInvalidValue: the pointer "
                          "is not an allocation's start: it was freed already"));
}

TEST_CASE("an edit to one file of a program recompiles that file alone") {
  const fs::path dir = multi_file_variant("multi-edit", "README.md", "");
  const fs::path cache = scratch() / "multi-edit-cache";
  const std::vector<std::string> env{"WARPSIM_CACHE_DIR=" + cache.string()};
  std::vector<std::string> argv{WARPSIM_CLI_PATH, "exec"};
  for (const std::string& file : multi_file_sources(dir)) argv.push_back(file);
  REQUIRE(warpsim::test::run_process(argv, scratch(), env).exit_code == 0);
  CHECK(files_ending(cache / "kernels", ".o") == 3);
  CHECK(files_ending(cache / "kernels", ".exe") == 1);
  REQUIRE(warpsim::test::run_process(argv, scratch(), env).exit_code == 0);  // all cached
  CHECK(files_ending(cache / "kernels", ".o") == 3);
  CHECK(files_ending(cache / "kernels", ".exe") == 1);
  std::ofstream(dir / "main.cpp", std::ios::app) << "// edited\n";
  const ProcessOutcome edited = warpsim::test::run_process(argv, scratch(), env);
  CHECK(edited.exit_code == 0);
  CHECK(contains(edited.out, "PASSED"));
  CHECK(files_ending(cache / "kernels", ".o") == 4);  // main.cpp's new object only
  CHECK(files_ending(cache / "kernels", ".exe") == 2);
}

TEST_CASE("a compile error in a program's second file names that file and shows its errors") {
  const fs::path dir =
      multi_file_variant("multi-compile-error", "kernels.cu",
                         "#include \"multi_file.h\"\n"
                         "int scale_on_device(const float* in, float* out, int n) {\n"
                         "  return undeclared_in_kernels + n;\n"
                         "}\n");
  const ProcessOutcome run = exec_multi_file(dir);
  INFO(run.err);
  CHECK(run.exit_code == 125);
  CHECK(run.out.empty());
  CHECK(contains(run.err, (dir / "kernels.cu").string() + ":3"));
  CHECK(contains(run.err, "undeclared_in_kernels"));
  CHECK(contains(run.err, "warpsim exec: " + (dir / "kernels.cu").string() + " did not compile\n"));
  CHECK_FALSE(contains(run.err, "main.cpp did not compile"));
}

TEST_CASE(
    "a symbol no file defines, or a second main, is a link error: the linker's message, 125") {
  SUBCASE("undefined") {
    const fs::path dir = multi_file_variant(
        "multi-undefined", "kernels.cu",
        "#include \"multi_file.h\"\n"
        "int helper_nobody_defines(int n);\n"
        "int scale_on_device(const float*, float*, int n) { return helper_nobody_defines(n); }\n");
    std::vector<std::string> args{"exec"};
    for (const std::string& file : multi_file_sources(dir)) args.push_back(file);
    const ProcessOutcome run = run_warpsim(args);
    INFO(run.err);
    CHECK(run.exit_code == 125);
    CHECK(run.out.empty());
    CHECK(contains(run.err, "undefined reference to `helper_nobody_defines(int)'"));
    // GNU ld of Debian 12 writes "kernels.cu:3: undefined ...", Ubuntu 24.04's (the GPU machine)
    // "kernels.cu:3:(.text+0xb): undefined ...": the file and line are what matters.
    CHECK(contains(run.err, "warpsim exec: the program's 3 files did not link: " +
                                (dir / "kernels.cu").string() + ":3:"));
  }
  SUBCASE("a second main") {
    const fs::path dir =
        multi_file_variant("multi-two-mains", "kernels.cu",
                           "#include \"multi_file.h\"\n"
                           "int scale_on_device(const float*, float*, int) { return 3; }\n"
                           "int main() { return 0; }\n");
    std::vector<std::string> args{"exec"};
    for (const std::string& file : multi_file_sources(dir)) args.push_back(file);
    const ProcessOutcome run = run_warpsim(args);
    INFO(run.err);
    CHECK(run.exit_code == 125);
    CHECK(contains(run.err, "multiple definition of `main'"));
    CHECK(contains(run.err, "did not link"));
  }
  SUBCASE("a file named twice") {
    const std::vector<std::string> files = multi_file_sources();
    const ProcessOutcome run = run_warpsim({"exec", files[0], files[1], files[2], files[0]});
    CHECK(run.exit_code == 125);
    CHECK(contains(run.err, "main.cpp is named twice"));
  }
}

TEST_CASE("-D and -I take one value each: the files and the program's arguments stay apart") {
  // Regression: `exec FILE -D X -- -n 5` read -n as an option of exec's (CLI11 took `--` as the
  // end of the -D list), and `exec -I DIR FILE -- one` took FILE as a second folder.
  const std::string program = (kCases / "args_and_status.cu").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"exec", program, "-D", "X", "--", "-n", "5"},
        std::vector<std::string>{"exec", "-D", "X", program, "--", "-n", "5"},
        std::vector<std::string>{"exec", "-I", kCases.string(), "-D", "X=1", program, "-D", "Y",
                                 "--", "-n", "5"}}) {
    CAPTURE(args);
    const ProcessOutcome run = run_warpsim(args);
    INFO(run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.out == "arg 1: -n\narg 2: 5\n");
  }
  const ProcessOutcome dashes = run_warpsim({"exec", program, "--", "--json", "--", "-D"});
  CHECK(dashes.exit_code == 3);
  CHECK(dashes.out == "arg 1: --json\narg 2: --\narg 3: -D\n");
}

TEST_CASE("--jobs N runs a launch's blocks on N threads, with the output of one") {
  const std::string program = (kPrograms / "histogram.cu").string();
  const ProcessOutcome one = run_warpsim({"exec", "--jobs", "1", program});
  const ProcessOutcome three = run_warpsim({"exec", "--jobs", "3", program});
  INFO(one.err, three.err);
  CHECK(one.exit_code == 0);
  CHECK(three.exit_code == 0);
  CHECK(one.out == three.out);
  const ProcessOutcome zero = run_warpsim({"exec", "--jobs", "0", program});
  CHECK(zero.exit_code != 0);
  CHECK(contains(zero.err, "--jobs"));
}

TEST_CASE("a program's .cpp file is host C++, as nvcc builds it: its own umin() is no clash") {
  const fs::path dir = scratch() / "host-cpp";
  fs::create_directories(dir);
  // umin is one of CUDA's device functions (the shim declares it); nvcc never shows it to a .cpp.
  std::ofstream(dir / "gold.cpp") << "static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }\n"
                                     "unsigned smallest(const unsigned* v, int n) {\n"
                                     "  unsigned m = v[0];\n"
                                     "  for (int i = 1; i < n; ++i) m = umin(m, v[i]);\n"
                                     "  return m;\n"
                                     "}\n";
  std::ofstream(dir / "main.cu")
      << "#include <cstdio>\n"
         "unsigned smallest(const unsigned* v, int n);\n"
         "__global__ void fill(unsigned* v) { v[threadIdx.x] = 100u - threadIdx.x; }\n"
         "int main() {\n"
         "  unsigned* v; cudaMallocManaged(&v, 32 * sizeof(unsigned));\n"
         "  fill<<<1, 32>>>(v); cudaDeviceSynchronize();\n"
         "  std::printf(\"%u\\n\", smallest(v, 32)); return 0;\n"
         "}\n";
  const ProcessOutcome run =
      run_warpsim({"exec", (dir / "main.cu").string(), (dir / "gold.cpp").string()});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == "69\n");
}
