// Every launch's buffers for `warpsim exec --gpu`: what the simulated program records after each
// launch (warpsim/launch_buffers.hpp), how two recordings compare, and that the GPU side of the
// same program (rewrite_launches for nvcc, warpsim/gpu_launch_hooks.hpp) builds with nvcc. The
// GPU run itself is checked on a GPU machine (scripts/record_gpu.sh runs exec --gpu).
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_warpsim.hpp"
#include "support/scratch_dir.hpp"
#include "warpsim/program.hpp"
#include "warpsim/program_buffers.hpp"
#include "warpsim/runner.hpp"

namespace fs = std::filesystem;
using namespace warpsim::runner;

namespace {

const fs::path kPrograms = fs::path(WARPSIM_SOURCE_DIR) / "tests/programs";

const fs::path& scratch() {
  static const warpsim::test::ScratchDir dir("warpsim-launch-buffers-test");
  REQUIRE_FALSE(dir.path().empty());
  return dir.path();
}

// The simulated program's recording in a fresh folder.
fs::path record(const std::string& program, const std::string& folder) {
  const fs::path dir = scratch() / folder;
  fs::remove_all(dir);
  fs::create_directories(dir);
  ProgramRequest request;
  request.files = {(kPrograms / program).string()};
  request.capture_stdout = true;
  request.buffers_dir = dir.string();
  const ProgramResult result = run_program(request);
  REQUIRE_MESSAGE(result.status == ProgramStatus::exited, result.message, result.details);
  REQUIRE(result.exit_code == 0);
  return dir;
}

fs::path copy_of(const fs::path& dir, const std::string& name) {
  const fs::path copy = scratch() / name;
  fs::remove_all(copy);
  fs::copy(dir, copy, fs::copy_options::recursive);
  return copy;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_all(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// Rewrites one buffer's bytes in a recording: `edit` changes them, and its index line gets a hash
// that no longer matches the other side's.
template <class Edit>
void edit_buffer(const fs::path& dir, const std::string& data_file, Edit edit) {
  std::string bytes = read_all(dir / data_file);
  edit(bytes);
  write_all(dir / data_file, bytes);
  std::string index = read_all(dir / "buffers.tsv");
  const std::size_t at = index.find("\t" + data_file);
  REQUIRE(at != std::string::npos);
  index.replace(at - 16, 16, "0123456789abcdef");
  write_all(dir / "buffers.tsv", index);
}

// The B lines a GPU side would write for the simulator's buffers of launch `sim_launch`, as its
// launch `gpu_launch`, with their bytes copied into `gpu_dir`.
std::string buffer_lines_as_gpu(const LaunchBufferRecording& sim, std::uint64_t sim_launch,
                                std::uint64_t gpu_launch, const fs::path& gpu_dir) {
  std::string lines;
  for (const RecordedBuffer& b : sim.buffers) {
    if (b.launch != sim_launch) continue;
    const std::string data = std::to_string(gpu_launch) + "-" + std::to_string(b.arg) + ".bin";
    fs::copy_file(b.data_path, gpu_dir / data);
    lines += "B\t" + std::to_string(gpu_launch) + "\t" + std::to_string(b.arg) + "\t" + b.type +
             "\t" + std::to_string(b.element_bytes) + "\t" + std::to_string(b.offset) + "\t" +
             std::to_string(b.bytes) + "\t" + b.hash + "\t" + data + "\n";
  }
  return lines;
}

void set_float(std::string& bytes, std::size_t index, float value) {
  std::memcpy(bytes.data() + index * 4, &value, 4);
}

}  // namespace

TEST_CASE("the simulated program records every launch and the allocation behind each pointer") {
  const fs::path dir = record("template_functors.cu", "functors");
  const auto recording = read_launch_buffers(dir.string());
  REQUIRE(recording);
  CHECK(recording->launches.size() == 4);
  for (const RecordedLaunch& l : recording->launches) CHECK(l.status == 0);
  REQUIRE_FALSE(recording->buffers.empty());
  for (const RecordedBuffer& b : recording->buffers) {
    CHECK_FALSE(b.data_path.empty());
    CHECK(fs::file_size(b.data_path) == b.bytes);
    CHECK(b.element_bytes >= 1);
  }
  // A __half buffer is named as such (half_precision.cu's first launch takes two).
  const auto halves = read_launch_buffers(record("half_precision.cu", "half").string());
  REQUIRE(halves);
  REQUIRE(halves->buffers.size() >= 3);
  CHECK(halves->buffers[0].type == "f16");
  CHECK(halves->buffers[0].element_bytes == 2);
  CHECK(halves->buffers[2].type == "f32");
}

TEST_CASE("two recordings compare launch by launch, in each buffer's element type") {
  const fs::path sim = record("vector_add.cu", "vector_add");
  const fs::path same = copy_of(sim, "vector_add_same");
  auto c = compare_launch_buffers(sim.string(), same.string());
  REQUIRE(c);
  CHECK(c->identical());
  CHECK(c->sim_launches == 1);
  CHECK(c->buffers.size() == 3);

  SUBCASE("a float one ULP away matches within 1 ULP, not within 0") {
    const fs::path gpu = copy_of(sim, "vector_add_ulp");
    edit_buffer(gpu, "0-2.bin", [](std::string& bytes) {
      float v = 0;
      std::memcpy(&v, bytes.data() + 7 * 4, 4);
      set_float(bytes, 7, std::nextafter(v, 1e30f));
    });
    auto exact = compare_launch_buffers(sim.string(), gpu.string(), 0);
    REQUIRE(exact);
    CHECK_FALSE(exact->matches());
    const LaunchBufferComparison* d = exact->first_difference();
    REQUIRE(d != nullptr);
    CHECK(d->launch == 0);
    CHECK(d->arg == 2);
    CHECK(d->type == "f32");
    CHECK(d->differing == 1);
    CHECK(d->first_index == 7);
    CHECK(d->max_ulp == 1);
    CHECK(d->sim_value != d->gpu_value);
    auto loose = compare_launch_buffers(sim.string(), gpu.string(), 1);
    REQUIRE(loose);
    CHECK(loose->matches());
    CHECK_FALSE(loose->identical());
    CHECK(loose->within_tolerance_count() == 1);
  }
  SUBCASE("a different value is shown in its type, counted from the argument's pointer") {
    const fs::path gpu = copy_of(sim, "vector_add_value");
    edit_buffer(gpu, "0-0.bin", [](std::string& bytes) { set_float(bytes, 3, 2.5f); });
    auto diff = compare_launch_buffers(sim.string(), gpu.string());
    REQUIRE(diff);
    const LaunchBufferComparison* d = diff->first_difference();
    REQUIRE(d != nullptr);
    CHECK(d->arg == 0);
    CHECK(d->first_index == 3);
    CHECK(d->gpu_value == "2.5");
  }
  SUBCASE("a launch of another kernel stops the comparison there") {
    const fs::path gpu = copy_of(sim, "vector_add_kernel");
    std::string index = read_all(gpu / "buffers.tsv");
    const std::size_t at = index.find("vectorAdd");
    REQUIRE(at != std::string::npos);
    index.replace(at, 9, "vectorSub");
    write_all(gpu / "buffers.tsv", index);
    auto diff = compare_launch_buffers(sim.string(), gpu.string());
    REQUIRE(diff);
    CHECK_FALSE(diff->matches());
    REQUIRE(diff->problems.size() == 1);
    CHECK(diff->problems[0].find("vectorSub on the GPU") != std::string::npos);
    CHECK(diff->buffers.empty());
  }
  SUBCASE("a buffer kept only as a hash that differs is named as not comparable") {
    const fs::path gpu = copy_of(sim, "vector_add_hash");
    std::string index = read_all(gpu / "buffers.tsv");
    const std::size_t at = index.find("\t0-1.bin");
    index.replace(at - 16, 16 + 8, "0123456789abcdef\t-");
    write_all(gpu / "buffers.tsv", index);
    auto diff = compare_launch_buffers(sim.string(), gpu.string());
    REQUIRE(diff);
    const LaunchBufferComparison* d = diff->first_difference();
    REQUIRE(d != nullptr);
    CHECK(d->arg == 1);
    CHECK(d->problem.find("too large to keep") != std::string::npos);
  }
}

TEST_CASE("a missing or malformed recording is an error, not a comparison") {
  const fs::path empty = scratch() / "empty";
  fs::create_directories(empty);
  auto missing = compare_launch_buffers(empty.string(), empty.string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("buffers.tsv") != std::string::npos);
  write_all(empty / "buffers.tsv", "L\t0\t0\tk\nB\t0\tnot-a-number\n");
  auto malformed = read_launch_buffers(empty.string());
  REQUIRE_FALSE(malformed);
  CHECK(malformed.error().message.find("buffers.tsv:2") != std::string::npos);
}

TEST_CASE("launches inside graphs are G lines, counted on both sides and never paired") {
  // cuda_graphs.cu: two <<<>>> launches captured into a graph, four graphs launched 9 times in
  // all (18 kernel runs, captured launches and kernel nodes alike), then one launch on a stream.
  const fs::path sim = record("cuda_graphs.cu", "graphs_sim");
  const auto recording = read_launch_buffers(sim.string());
  REQUIRE(recording);
  REQUIRE(recording->launches.size() == 19);
  for (std::size_t i = 0; i < 18; ++i) CHECK(recording->launches[i].in_graph);
  const RecordedLaunch& made = recording->launches[18];
  CHECK_FALSE(made.in_graph);
  CHECK(made.kernel == "scale");
  // Only the launch made outside graphs has buffers.
  REQUIRE_FALSE(recording->buffers.empty());
  for (const RecordedBuffer& b : recording->buffers) CHECK(b.launch == made.launch);

  // The GPU side's recording of the same run: its hooks see the two captured launches (G, no
  // buffers), not the graphs' runs, then the last launch (L) with the simulator's bytes.
  const fs::path gpu = scratch() / "graphs_gpu";
  fs::remove_all(gpu);
  fs::create_directories(gpu);
  write_all(gpu / "buffers.tsv", "G\t0\t0\tscale\nG\t1\t0\tsumAll\nL\t2\t0\tscale\n" +
                                    buffer_lines_as_gpu(*recording, made.launch, 2, gpu));
  auto c = compare_launch_buffers(sim.string(), gpu.string());
  REQUIRE(c);
  // The launches outside graphs pair in order (the simulator's 19th with the GPU's 3rd).
  CHECK(c->problems.empty());
  CHECK(c->sim_launches == 1);
  CHECK(c->gpu_launches == 1);
  CHECK(c->sim_graph_launches == 18);
  CHECK(c->gpu_graph_launches == 2);
  CHECK(c->graph_launches_not_compared());
  CHECK(c->buffers.size() == recording->buffers.size());
  CHECK(c->gpu_only_buffers == 0);
  CHECK(c->identical());

  // The report says what was not compared, in text and in JSON; the run still matches.
  const auto run = [](const std::vector<std::string>& args) {
    std::vector<std::string> argv{WARPSIM_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    return warpsim::test::run_process(argv, scratch());
  };
  const std::string program = (kPrograms / "cuda_graphs.cu").string();
  const auto text = run({"exec", "--compare-buffers", gpu.string(), program});
  CHECK_MESSAGE(text.exit_code == 0, text.err);
  CHECK(text.err.find("launches inside graphs not compared: 18 kernel runs in the simulator's "
                      "graph launches, 2 launches captured into graphs on the GPU") !=
        std::string::npos);
  const fs::path json_path = scratch() / "graphs.json";
  const auto json =
      run({"exec", "--compare-buffers", gpu.string(), "--json", json_path.string(), program});
  CHECK_MESSAGE(json.exit_code == 0, json.err);
  CHECK(read_all(json_path).find("\"graph_launches_not_compared\":{\"simulator\":18,\"gpu\":2}") !=
        std::string::npos);
  // A program without graphs says nothing of them.
  const auto plain = run({"exec", "--compare-buffers", (kPrograms / "recorded/buffers/vector_add")
                                                           .string(),
                          (kPrograms / "vector_add.cu").string()});
  CHECK(plain.err.find("inside graphs") == std::string::npos);
}

TEST_CASE("launches made without <<<>>> are A lines: the GPU side does not see them, so no pair") {
  // grid_sync.cu: cudaLaunchCooperativeKernel and cudaLaunchKernelEx, each followed by a <<<>>>
  // launch of countMatches. The GPU side's hooks rewrite <<<>>> only: they record the two
  // countMatches launches, which must pair with the simulator's two.
  const fs::path sim = record("grid_sync.cu", "api_sim");
  const auto recording = read_launch_buffers(sim.string());
  REQUIRE(recording);
  REQUIRE(recording->launches.size() == 4);
  CHECK(recording->launches[0].without_chevrons);
  CHECK(recording->launches[0].kernel == "gridTotal");
  CHECK_FALSE(recording->launches[1].without_chevrons);
  CHECK(recording->launches[2].without_chevrons);
  CHECK_FALSE(recording->launches[3].without_chevrons);
  for (const RecordedBuffer& b : recording->buffers) {
    CHECK((b.launch == recording->launches[1].launch || b.launch == recording->launches[3].launch));
  }

  const fs::path gpu = scratch() / "api_gpu";
  fs::remove_all(gpu);
  fs::create_directories(gpu);
  std::string index;
  for (std::size_t k : {std::size_t{1}, std::size_t{3}}) {
    const std::uint64_t sim_launch = recording->launches[k].launch;
    const std::uint64_t gpu_launch = k / 2;  // the GPU side counts only what it sees
    index += "L\t" + std::to_string(gpu_launch) + "\t0\tcountMatches\n" +
             buffer_lines_as_gpu(*recording, sim_launch, gpu_launch, gpu);
  }
  write_all(gpu / "buffers.tsv", index);
  auto c = compare_launch_buffers(sim.string(), gpu.string());
  REQUIRE(c);
  CHECK(c->problems.empty());
  CHECK(c->sim_launches == 2);
  CHECK(c->gpu_launches == 2);
  CHECK(c->sim_launches_without_chevrons == 2);
  CHECK(c->identical());
}

TEST_CASE("the GPU side of exec --gpu builds with nvcc: launches wrapped, buffers recorded") {
  std::string nvcc;
  for (const char* candidate : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"}) {
    if (access(candidate, X_OK) == 0) nvcc = candidate;
  }
  if (nvcc.empty()) {
    MESSAGE("skipped: no nvcc on this machine (the GPU build of exec --gpu needs the toolkit)");
    return;
  }
  // Templates, streams and launches in expressions, every launch form, host variables named as
  // built-ins, launches in the user's headers: the forms the rewrite must keep valid CUDA.
  const std::string include_dir = std::string(WARPSIM_BINARY_DIR) + "/include";
  // Launches captured into graphs (the hook asks the launch's stream whether it captures) and
  // launches in kernel code (dynamic parallelism: the hook is device code there, under
  // -rdc=true, the flag the program's first line names).
  for (const char* program : {"template_functors.cu", "streams_events.cu", "launch_forms.cu",
                              "host_builtin_names.cu", "launch_from_header.cu", "cuda_graphs.cu",
                              "dynamic_parallelism.cu"}) {
    CAPTURE(std::string(program));
    const fs::path dir = scratch() / (std::string("gpu_") + fs::path(program).stem().string());
    fs::create_directories(dir);
    const auto generated = write_gpu_program((kPrograms / program).string(), {}, include_dir,
                                             dir.string());
    REQUIRE_MESSAGE(generated.has_value(), generated.error().message);
    // The program and its harness header, whose launches are wrapped too (the included kernel
    // file launches nothing: nvcc reads it as it is).
    if (std::string(program) == "launch_from_header.cu") {
      CHECK(std::count_if(fs::directory_iterator(dir), fs::directory_iterator(),
                          [](const fs::directory_entry& e) {
                            return read_all(e.path()).find("gpu_hooks::launch_kernel") !=
                                   std::string::npos;
                          }) == 2);
    }
    std::vector<std::string> argv{nvcc, "-arch=sm_90", "-O0", "-I" + kPrograms.string(),
                                  "-I" + include_dir, "-o", (dir / "program").string()};
    if (read_all(kPrograms / program).rfind("// nvcc flags: -rdc=true\n", 0) == 0) {
      argv.push_back("-rdc=true");
    }
    argv.push_back(*generated);
    const warpsim::test::ProcessOutcome build = warpsim::test::run_process(argv, scratch());
    CHECK_MESSAGE(build.exit_code == 0, build.out, build.err);
  }
}

TEST_CASE("the GPU side of exec --gpu builds a program of several files: each file to nvcc") {
  if (access("/usr/local/cuda/bin/nvcc", X_OK) != 0 && access("/usr/bin/nvcc", X_OK) != 0) {
    MESSAGE("skipped: no nvcc on this machine (the GPU build of exec --gpu needs the toolkit)");
    return;
  }
  const fs::path dir = kPrograms / "multi_file";
  ProgramRequest request;
  request.files = {(dir / "main.cpp").string(), (dir / "kernels.cu").string(),
                   (dir / "checksum.c").string()};
  request.time_limit_seconds = 30;
  // As it is, and with every .cu's launches wrapped to record their buffers (.c as it is).
  for (const bool recorded : {false, true}) {
    CAPTURE(recorded);
    const fs::path buffers = scratch() / "multi_file_gpu";
    fs::create_directories(buffers);
    request.buffers_dir = recorded ? buffers.string() : "";
    // Built and run: without a GPU the program runs, finds none and fails its own check.
    auto run = run_program_with_nvcc(request);
    if (!run) FAIL(to_string(run.error()));
    CHECK_FALSE(run->timed_out);
  }
}

TEST_CASE("every launch's buffers match the H100's recording of each corpus program") {
  // recorded/buffers/<name>/ is written by record_gpu_buffers.sh on a GPU machine: the GPU's
  // index of hashes, and the bytes of any buffer the simulator disagreed with.
  const fs::path recorded = kPrograms / "recorded/buffers";
  REQUIRE_MESSAGE(fs::is_directory(recorded), "no GPU recording: run record_gpu_buffers.sh");
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(recorded)) {
    if (!entry.is_directory()) continue;
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    const fs::path sim = record(name + ".cu", "corpus_" + name);
    auto c = compare_launch_buffers(sim.string(), entry.path().string());
    if (!c) FAIL(c.error().message);
    CHECK(c->problems.empty());
    CHECK(c->sim_launches == c->gpu_launches);
    for (const LaunchBufferComparison& b : c->buffers) {
      CAPTURE(b.launch);
      CAPTURE(b.arg);
      CAPTURE(b.problem);
      // A result whose order the GPU's warp schedule decides (slots taken with atomicAdd) can
      // only hold the same elements; everything else is bit for bit the GPU's.
      CHECK((b.identical() || b.same_elements_reordered));
    }
    ++compared;
  }
  CHECK(compared >= 15);
}

TEST_CASE("exec --compare-buffers compares with a recording without a GPU, and says how") {
  const fs::path recorded = kPrograms / "recorded/buffers";
  const auto run = [](const std::vector<std::string>& args) {
    std::vector<std::string> argv{WARPSIM_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    return warpsim::test::run_process(argv, scratch());
  };
  const auto same = run({"exec", "--compare-buffers", (recorded / "vector_add").string(),
                         (kPrograms / "vector_add.cu").string()});
  CHECK_MESSAGE(same.exit_code == 0, same.err);
  CHECK(same.err.find("warpsim exec --compare-buffers: buffers after every launch: 1 launch, 3 "
                      "buffers compared: 3 identical") != std::string::npos);
  // With --json the comparison is a key of the report; a reordered result says so.
  const fs::path json_path = scratch() / "compare.json";
  const auto reordered =
      run({"exec", "--compare-buffers", (recorded / "ballot_compact").string(), "--json",
           json_path.string(), (kPrograms / "ballot_compact.cu").string()});
  CHECK(reordered.exit_code == 1);
  const std::string json = read_all(json_path);
  CHECK(json.find("\"recorded_buffers\":{\"launches\":1") != std::string::npos);
  CHECK(json.find("\"same_elements_reordered\":true") != std::string::npos);
  // Another program's recording: its launches are of another kernel.
  const auto other = run({"exec", "--compare-buffers", (recorded / "warp_reduce").string(),
                          (kPrograms / "vector_add.cu").string()});
  CHECK(other.exit_code == 1);
  CHECK(other.err.find("is a launch of blockSum<int, 256> on the GPU") != std::string::npos);
  const auto no_gpu_flag = run({"exec", "--tolerance-ulps", "2",
                                (kPrograms / "vector_add.cu").string()});
  CHECK(no_gpu_flag.exit_code == 2);
  CHECK(no_gpu_flag.err.find("--tolerance-ulps needs --gpu or --compare-buffers") !=
        std::string::npos);
}
