// What `warpsim exec` prints after the program: each launch (kernel, shape, steps, diagnostics)
// and how the program ended, as text for people (stderr) or as one JSON object (--json FILE);
// and, with --gpu, how the simulated program's output compares with the GPU's.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "trace_text.hpp"
#include "warpsim/program.hpp"
#include "warpsim/program_buffers.hpp"

namespace warpsim::cli {

// `files`: the program's sources (ProgramRequest::files). The text names the program by their
// names ("prog.cu", "main.cpp + kernels.cu"); the JSON has the first as "file" and all of them
// as "files".
void write_exec_text(std::ostream& out, const std::vector<std::string>& files,
                     const runner::ProgramResult& result, const TextStyle& style);
nlohmann::ordered_json exec_json(const std::vector<std::string>& files,
                                 const runner::ProgramResult& result);

// The simulated and the GPU program side by side: same stdout, same exit status.
struct ProgramComparison {
  bool same_stdout = false;
  bool same_exit_status = false;
  std::size_t first_different_line = 0;  // 1-based; 0 when stdout is the same
  std::string sim_line, gpu_line;        // that line on each side ("" past the end)
  bool identical() const { return same_stdout && same_exit_status; }
};
ProgramComparison compare_programs(const std::string& sim_stdout, int sim_status,
                                   const std::string& gpu_stdout, int gpu_status);
void write_comparison_text(std::ostream& out, const ProgramComparison& comparison, int sim_status,
                           int gpu_status);
// Every launch's buffers side by side: counts, then each buffer that does not match (the first
// few) and each launch the two programs made differently. `against`: "--gpu" or
// "--compare-buffers", as the line names the comparison.
void write_buffers_comparison_text(std::ostream& out, std::string_view against,
                                   const runner::ProgramBuffersComparison& c,
                                   std::uint64_t ulp_tolerance);
// The same as JSON: counts, and every buffer that does not match with its first difference.
nlohmann::ordered_json buffers_comparison_json(const runner::ProgramBuffersComparison& c);

}  // namespace warpsim::cli
