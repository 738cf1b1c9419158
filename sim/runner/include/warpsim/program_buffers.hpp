// `warpsim exec --gpu`'s comparison of every launch's buffers: what the simulated program and the
// nvcc-built one recorded (ProgramRequest::buffers_dir, format in warpsim/launch_buffers.hpp),
// launch by launch and buffer by buffer, element by element in the pointee's type.
//
//   auto c = compare_launch_buffers(sim_dir, gpu_dir, /*ulp_tolerance=*/0);
//   c->first_difference()  // launch 3 (scale at main.cu:40), argument 1 (f32): element 17 ...
//
// Nothing here prints: the CLI renders the comparison.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/expected.hpp"

namespace warpsim::runner {

// One side's recording, as read back.
struct RecordedLaunch {
  std::uint64_t launch = 0;
  int status = 0;  // the launch's cudaError_t; 0: it ran
  std::string kernel;
  // A G line: inside a graph (captured on the GPU side, run by a graph launch in the
  // simulator); never paired, no buffers.
  bool in_graph = false;
  // An A line: made without <<<>>> (cudaLaunchKernel, ...), which the GPU side does not see;
  // never paired, no buffers.
  bool without_chevrons = false;
};
struct RecordedBuffer {
  std::uint64_t launch = 0;
  unsigned arg = 0;
  std::string type;  // f32, i32, u8, f16, ..., or bytes
  std::uint64_t element_bytes = 1;
  std::uint64_t offset = 0;  // where the argument points into the allocation
  std::uint64_t bytes = 0;   // the whole allocation
  std::string hash;          // FNV-1a of the bytes, 16 hex digits
  std::string data_path;     // the saved bytes; empty when only the hash was kept
};
struct LaunchBufferRecording {
  std::vector<RecordedLaunch> launches;
  std::vector<RecordedBuffer> buffers;
};
// A folder's buffers.tsv; a missing folder or index, or a malformed line, is an error.
Expected<LaunchBufferRecording> read_launch_buffers(const std::string& dir);

struct LaunchBufferComparison {
  std::uint64_t launch = 0;
  std::string kernel;
  unsigned arg = 0;
  std::string type;
  std::uint64_t elements = 0;          // compared
  std::uint64_t differing = 0;         // beyond the tolerance
  std::uint64_t within_tolerance = 0;  // float elements whose bits differ within it
  std::uint64_t max_ulp = 0;           // largest ULP distance among differing float elements
  // The first element that differs, counted from where the argument points (negative: before
  // it, in the same allocation), and its value on each side as reports print elements.
  std::optional<std::int64_t> first_index;
  std::string sim_value, gpu_value;
  std::string problem;  // non-empty: not compared element by element, and why
  // The buffers differ, but hold the same elements in another order: what a result written in
  // the order warps happen to run (slots taken with atomicAdd) looks like.
  bool same_elements_reordered = false;
  bool identical() const { return problem.empty() && differing == 0 && within_tolerance == 0; }
  bool matches() const { return problem.empty() && differing == 0; }
};

struct ProgramBuffersComparison {
  // Launches made outside graphs, paired in order: the simulator's n-th with the GPU's n-th.
  std::uint64_t sim_launches = 0, gpu_launches = 0;
  // Launches inside graphs, not compared: kernels the simulator ran in graph launches, and
  // launches the GPU side saw captured into a graph (it sees neither a graph's runs nor kernel
  // nodes, so the two counts need not agree).
  std::uint64_t sim_graph_launches = 0, gpu_graph_launches = 0;
  // The simulator's launches made without <<<>>>: the GPU side's hooks do not see them.
  std::uint64_t sim_launches_without_chevrons = 0;
  bool graph_launches_not_compared() const {
    return sim_graph_launches != 0 || gpu_graph_launches != 0;
  }
  std::vector<LaunchBufferComparison> buffers;  // every simulator buffer, in launch order
  // Launches whose kernel or status differ, or that one side lacks; the comparison stops at the
  // first launch whose kernel differs (the programs went different ways).
  std::vector<std::string> problems;
  std::uint64_t gpu_only_buffers = 0;  // pointer arguments only the GPU side could place
  std::uint64_t identical_count() const;
  std::uint64_t within_tolerance_count() const;  // match, not identical
  const LaunchBufferComparison* first_difference() const;  // first that does not match
  bool identical() const;
  bool matches() const;
};

// Both recordings, launch by launch: the launches made outside graphs (L lines) in order, each
// side's n-th with the other's; launches inside graphs (G lines) are counted only. f32/f64
// elements within `ulp_tolerance` ULPs match.
Expected<ProgramBuffersComparison> compare_launch_buffers(const std::string& sim_dir,
                                                          const std::string& gpu_dir,
                                                          std::uint64_t ulp_tolerance = 0);

}  // namespace warpsim::runner
