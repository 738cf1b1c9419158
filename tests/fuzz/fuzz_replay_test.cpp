// The differential fuzz corpus, replayed without a GPU: every program of programs/ (random,
// well-defined warp-level kernels from scripts/fuzz/gen_warp_fuzz.py, each file a whole CUDA
// program whose main runs ~50 kernels) runs in the simulator through `warpsim exec`'s path
// (run_program), and every output word of every thread must equal the GPU's recording in gpu/
// (scripts/fuzz/record_gpu.sh: nvcc on an H200; device, driver and date in gpu/device.txt).
// A kernel the GPU refused (a trap) must stop in the simulator too, never complete silently.
// Kernels listed in known_mismatches.json must still differ (else: say that one is fixed).
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/kernel_cache.hpp"
#include "support/scratch_dir.hpp"
#include "warpsim/program.hpp"

namespace fs = std::filesystem;
using namespace warpsim::runner;

namespace {

const fs::path kFuzz = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "fuzz";

// One kernel of a recording: the CUDA status the program wrote and its output words.
struct KernelOutcome {
  std::string status;  // cudaSuccess, cudaErrorIllegalInstruction, hang, ...; "" if it never ended
  std::vector<std::uint32_t> words;
  std::string stop;    // simulator only: why warpsim stopped the program inside this kernel
  std::uint64_t diagnostics = 0;  // simulator only: diagnostics of its launch
};
using Recording = std::map<std::string, KernelOutcome>;

// The recording format the generated host main writes (and record_gpu.sh completes).
Recording parse_recording(const std::string& text) {
  Recording kernels;
  std::istringstream in(text);
  KernelOutcome* current = nullptr;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first)) continue;
    if (first == "begin") {
      std::string name;
      words >> name;
      current = &kernels[name];
    } else if (first == "end") {
      current = nullptr;
    } else if (current == nullptr) {
      continue;
    } else if (first == "status") {
      words >> current->status;
    } else if (first != "words") {
      current->words.push_back(static_cast<std::uint32_t>(std::stoul(first, nullptr, 16)));
      for (std::string word; words >> word;) {
        current->words.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
      }
    }
  }
  return kernels;
}

std::string read_gzip(const fs::path& path) {
  std::string text;
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return text;
  char buffer[1 << 16];
  for (int n; (n = gzread(file, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  gzclose(file);
  return text;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One program in the simulator, restarted after a kernel at which warpsim stopped it (as
// record_gpu.sh restarts the GPU program after a trap).
struct SimRun {
  Recording kernels;
  std::string failure;  // the program could not be built or made no progress
};

SimRun simulate(const fs::path& program, std::size_t kernel_count, const fs::path& scratch) {
  SimRun run;
  const fs::path output = scratch / (program.stem().string() + ".txt");
  fs::remove(output);
  std::size_t first = 0;
  std::map<std::string, std::string> stops;  // kernel -> why warpsim stopped the program there
  std::vector<std::uint64_t> diagnostics(kernel_count, 0);
  while (first < kernel_count) {
    ProgramRequest request;
    request.files = {program.string()};
    request.program_args = {output.string(), std::to_string(first)};
    request.capture_stdout = true;
    request.jobs = 1;
    request.time_limit_seconds = 300;
    const ProgramResult result = run_program(request);
    if (result.status == ProgramStatus::bad_input) {
      run.failure = result.message + "\n" + result.details;
      return run;
    }
    for (std::size_t i = 0; i < result.launches.size() && first + i < kernel_count; ++i) {
      diagnostics[first + i] = result.launches[i].record.diagnostics;
    }
    const std::string text = read_text(output);
    const Recording so_far = parse_recording(text);
    std::size_t begun = 0;  // kernels the program started, in all runs so far
    std::string last;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("begin ", 0) == 0) {
        ++begun;
        last = line.substr(6);
      }
    }
    if (result.status == ProgramStatus::exited && result.exit_code == 0) break;
    if (begun <= first) {
      run.failure = "made no progress from kernel " + std::to_string(first) + ": " +
                    std::string(to_string(result.status)) + " " + result.message;
      return run;
    }
    if (so_far.count(last) != 0 && so_far.at(last).status.empty()) {
      stops[last] = std::string(to_string(result.status)) + ": " + result.message;
    }
    first = begun;
  }
  run.kernels = parse_recording(read_text(output));
  // Diagnostics by launch: kernel fzNN_kMM is launch MM of its program.
  for (auto& [name, outcome] : run.kernels) {
    const std::size_t index = std::stoul(name.substr(name.rfind("_k") + 2));
    if (index < diagnostics.size()) outcome.diagnostics = diagnostics[index];
    if (const auto stop = stops.find(name); stop != stops.end()) outcome.stop = stop->second;
  }
  return run;
}

struct Totals {
  std::size_t programs = 0, threads = 0, words = 0, mismatched_kernels = 0, known = 0;
  std::size_t gpu_refused = 0;
};

}  // namespace

TEST_CASE("every fuzz program gives the GPU's recorded outputs in the simulator") {
  const nlohmann::json manifest = nlohmann::json::parse(read_text(kFuzz / "manifest.json"));
  const std::size_t words_per_thread = manifest.at("words_out_per_thread").get<std::size_t>();
  std::map<std::string, std::string> known;  // kernel -> cause
  const nlohmann::json known_list =
      nlohmann::json::parse(read_text(kFuzz / "known_mismatches.json"));
  for (const auto& entry : known_list.at("known_mismatches")) {
    known[entry.at("kernel").get<std::string>()] = entry.at("cause").get<std::string>();
  }
  warpsim::test::use_test_kernel_cache();
  const warpsim::test::ScratchDir scratch("warpsim-fuzz-test");
  REQUIRE_FALSE(scratch.path().empty());

  const auto& files = manifest.at("files");
  REQUIRE(files.size() >= 1);
  // Programs run in parallel (each is a compile and a child process); checks come after.
  std::vector<SimRun> runs(files.size());
  std::atomic<std::size_t> next{0};
  const unsigned workers = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < files.size();) {
        const std::string file = files[i].at("file").get<std::string>();
        runs[i] = simulate(kFuzz / "programs" / file, files[i].at("kernels").size(), scratch.path());
      }
    });
  }
  for (std::thread& t : pool) t.join();

  Totals totals;
  std::set<std::string> still_known;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string file = files[i].at("file").get<std::string>();
    INFO(file);
    REQUIRE_MESSAGE(runs[i].failure.empty(), runs[i].failure);
    const fs::path recorded = kFuzz / "gpu" / (fs::path(file).stem().string() + ".txt.gz");
    const Recording gpu = parse_recording(read_gzip(recorded));
    REQUIRE_MESSAGE(!gpu.empty(), "no GPU recording " << recorded);
    ++totals.programs;
    for (const auto& entry : files[i].at("kernels")) {
      const std::string name = entry.at("kernel").get<std::string>();
      INFO(name);
      REQUIRE_MESSAGE(gpu.count(name) != 0, name << " is missing from " << recorded);
      const KernelOutcome& expected = gpu.at(name);
      const std::size_t block = entry.at("block").get<std::size_t>();
      const auto found = runs[i].kernels.find(name);
      REQUIRE_MESSAGE(found != runs[i].kernels.end(), name << " never ran in the simulator");
      const KernelOutcome& got = found->second;
      const bool is_known = known.count(name) != 0;
      if (expected.status != "cudaSuccess") {
        // The hardware refused it: the simulator must stop there too, with a reason.
        ++totals.gpu_refused;
        CHECK_MESSAGE((!got.stop.empty() || got.status != "cudaSuccess" || got.diagnostics != 0),
                      name << ": the GPU gave " << expected.status
                           << " but the simulator completed it silently");
        continue;
      }
      std::string difference;
      if (!got.stop.empty() || got.status != "cudaSuccess") {
        difference = "the simulator stopped it (" + (got.stop.empty() ? got.status : got.stop) +
                     ") where the GPU completed it";
      } else if (got.words.size() != expected.words.size()) {
        difference = "the simulator wrote " + std::to_string(got.words.size()) + " words, the GPU " +
                     std::to_string(expected.words.size());
      } else {
        std::size_t threads = 0;
        std::ostringstream first;
        for (std::size_t t = 0; t * words_per_thread < expected.words.size(); ++t) {
          bool same = true;
          for (std::size_t k = 0; k < words_per_thread; ++k) {
            same = same && expected.words[t * words_per_thread + k] ==
                               got.words[t * words_per_thread + k];
          }
          if (same) continue;
          if (threads++ < 3) {
            const std::size_t in_block = t % block;
            first << "\n  thread " << t << " (block " << t / block << ", warp " << in_block / 32
                  << ", lane " << in_block % 32 << "): expected";
            for (std::size_t k = 0; k < words_per_thread; ++k) {
              first << ' ' << std::hex << expected.words[t * words_per_thread + k];
            }
            first << ", got";
            for (std::size_t k = 0; k < words_per_thread; ++k) {
              first << ' ' << std::hex << got.words[t * words_per_thread + k];
            }
            first << std::dec;
          }
        }
        totals.threads += expected.words.size() / words_per_thread;
        totals.words += expected.words.size();
        if (threads != 0) {
          difference = std::to_string(threads) + " threads differ:" + first.str();
        } else if (got.diagnostics != 0) {
          difference = std::to_string(got.diagnostics) +
                       " diagnostics on a kernel the GPU ran (the outputs agree)";
        }
      }
      if (!difference.empty()) ++totals.mismatched_kernels;
      if (is_known) {
        ++totals.known;
        CHECK_MESSAGE(!difference.empty(), name << " matches the GPU now: remove it from "
                                                   "tests/fuzz/known_mismatches.json ("
                                                << known.at(name) << ")");
        if (!difference.empty()) still_known.insert(name);
      } else {
        CHECK_MESSAGE(difference.empty(), name << ": " << difference);
      }
    }
  }
  MESSAGE("fuzz corpus: " << totals.programs << " programs, " << totals.threads
                          << " thread results (" << totals.words << " words) compared, "
                          << totals.mismatched_kernels << " kernels differ (" << still_known.size()
                          << " known), " << totals.gpu_refused << " refused by the GPU");
}
