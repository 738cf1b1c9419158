// Recording GPU test vectors (../shared/spec/vectors.md): generate seeded cases, run each on the
// device as one block of 32 threads, write what the GPU returned.
//
//   RecordOptions options;
//   options.seed = 777;
//   options.cases = 24000;
//   options.out = "tests/vectors/data/h100.jsonl.gz";
//   auto summary = record_vectors(options);
//   if (!summary) { std::fprintf(stderr, "%s\n", to_string(summary.error()).c_str()); return 3; }
//   std::printf("%zu cases, %zu lane results\n", summary->header.cases, summary->lane_results);
//
// Per (op, type) pair one NVRTC program (vector_kernel_source) is compiled for the device's own
// architecture; a launch runs up to `cases_per_launch` cases, one block each: lanes outside
// `lanes` return first, the others call the intrinsic once with the case's mask, value, arg and
// width and store the raw result bits (and match_all's *pred).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "cuda_driver.hpp"
#include "warpsim/expected.hpp"
#include "vector_cases.hpp"
#include "warpsim/vectors.hpp"

namespace warpsim::gpu {

inline constexpr const char* kVectorKernelName = "warpsim_vectors_kernel";

// The NVRTC source that runs cases of one (op, type) pair; its kernel is kVectorKernelName,
// extern "C", launched with one 32-thread block per case.
std::string vector_kernel_source(Op op, ValueType type);
// The name NVRTC reports in diagnostics, e.g. "warpsim_vectors_shfl_sync_i32.cu".
std::string vector_kernel_file_name(Op op, ValueType type);

struct RunOptions {
  std::size_t cases_per_launch = 4096;  // device memory: 912 bytes per case and launch
  std::chrono::milliseconds launch_timeout{60'000};
  std::function<void(const std::string&)> progress;  // optional: one line per (op, type) pair
};

struct RunStats {
  std::size_t kernels = 0;            // (op, type) programs compiled and loaded
  std::size_t launches = 0;
  std::size_t lane_results = 0;       // expect entries written (non-null)
  std::size_t undefined_results = 0;  // calling lanes written as null: shuffles from exited lanes
  std::size_t undefined_nonzero = 0;  // ... of which the GPU returned bits other than 0
  // Defined shuffle results whose bits differ from the source lane that the PTX formula names
  // (spec section 1.2). Recorded as the GPU gave them; non-zero means the spec or the recorder
  // needs a look.
  std::size_t shuffle_formula_mismatches = 0;
};

// Runs every case on `gpu` and fills expect, expect_defined and expect_pred from the device's
// results. Cases may be in any order and of any (op, type) pairs of the format.
Expected<RunStats> run_cases(Gpu& gpu, std::span<VectorCase> cases, const RunOptions& options = {});

struct RecordOptions {
  std::uint64_t seed = 777;
  std::size_t cases = 24000;
  std::filesystem::path out;  // ".jsonl", or ".jsonl.gz" for gzip
  int device = 0;             // CUDA device ordinal
  RunOptions run{};
};

struct RecordSummary {
  std::filesystem::path out;
  ::warpsim::VectorHeader header;  // as written
  RunStats stats;
  std::vector<Op> skipped_ops;  // ops of the format the device's architecture lacks
};

// A recorded case in the vector file's form (warpsim/vectors.hpp): expect null where CUDA leaves
// the result undefined (outside expect_defined), expect_pred for every calling lane of match_all.
::warpsim::VectorCase to_vector_case(const VectorCase& c);

// Writes the header and the cases (header.cases must equal cases.size()) with the simulator's
// vector writer; ".gz" paths are gzip-compressed. The file appears complete or not at all: it is
// written under a temporary name in the same folder and renamed into place at the end.
Expected<void> write_recorded_vectors(const std::filesystem::path& path, const ::warpsim::VectorHeader& header,
                                      std::span<const VectorCase> cases);

// Generates options.cases cases from options.seed for the device's architecture, runs them and
// writes the vector file. Without a device this fails (ErrorKind::no_device) and writes nothing.
Expected<RecordSummary> record_vectors(const RecordOptions& options);

}  // namespace warpsim::gpu
