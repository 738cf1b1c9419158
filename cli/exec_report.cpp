#include "exec_report.hpp"

#include <filesystem>
#include <ostream>
#include <sstream>
#include <vector>

#include "run_report.hpp"
#include "warpsim/text_lines.hpp"

namespace warpsim::cli {

using json = nlohmann::ordered_json;

namespace {

std::string launch_shape(const program::LaunchRecord& r) {
  std::string text = "<<<" + shape_text(r.grid) + ", " + shape_text(r.block);
  if (r.shared_bytes != 0 || r.stream != 0) text += ", " + std::to_string(r.shared_bytes);
  if (r.stream != 0) text += ", stream";
  return text + ">>>";
}

std::string ending_text(const runner::ProgramResult& r) {
  if (r.status == runner::ProgramStatus::exited) {
    return "the program exited with status " + std::to_string(r.exit_code);
  }
  return r.message;
}

}  // namespace

void write_exec_text(std::ostream& out, const std::vector<std::string>& files,
                     const runner::ProgramResult& r, const TextStyle& style) {
  std::string name;
  for (const std::string& file : files)
    name += (name.empty() ? "" : " + ") + std::filesystem::path(file).filename().string();
  const std::uint64_t diagnostics = r.diagnostic_count();
  out << "warpsim exec: " << name << ": " << r.launches.size()
      << (r.launches.size() == 1 ? " launch" : " launches") << ", " << diagnostics
      << (diagnostics == 1 ? " diagnostic" : " diagnostics") << "\n";
  for (const runner::ProgramLaunch& launch : r.launches) {
    const program::LaunchRecord& rec = launch.record;
    out << "  " << rec.index + 1 << ". " << rec.kernel << launch_shape(rec) << "  "
        << std::filesystem::path(rec.file).filename().string() << ":" << rec.line << "  "
        << rec.steps << (rec.steps == 1 ? " step" : " steps") << "  " << rec.status;
    if (!rec.message.empty()) out << ": " << rec.message;
    if (rec.parent) out << "  (launched by launch " << *rec.parent + 1 << ", depth " << rec.depth << ")";
    out << "\n";
    for (const std::uint32_t arg : rec.host_pointer_args) {
      out << "       warning: argument " << arg + 1
          << " points into memory no cudaMalloc, cudaMallocManaged or cudaHostAlloc gave (host "
             "memory?): the simulator reads it; a GPU faults there (an H200: "
             "cudaErrorIllegalAddress)\n";
    }
    for (const Diagnostic& d : launch.trace.diagnostics) {
      out << "       ";
      print_diagnostic(out, launch.trace, d, style);
    }
    if (launch.trace.diagnostics.empty() && rec.diagnostics != 0) {
      out << "       " << rec.diagnostics << " diagnostics (their trace could not be read)\n";
    }
    if (!rec.trace_file.empty() && launch.trace.steps.size() != 0) {
      out << "       trace: " << rec.trace_file << "\n";
    }
  }
  if (!r.refused_calls.empty()) {
    constexpr std::size_t kShown = 10;
    out << "warpsim exec: " << r.refused_calls.size()
        << (r.refused_calls.size() == 1 ? " runtime call was" : " runtime calls were")
        << " refused, as a GPU refuses them (docs/gpu-runs/copy-ranges.txt):\n";
    for (std::size_t i = 0; i < r.refused_calls.size() && i < kShown; ++i) {
      out << "  " << r.refused_calls[i] << "\n";
    }
    if (r.refused_calls.size() > kShown) {
      out << "  ... and " << r.refused_calls.size() - kShown << " more\n";
    }
  }
  out << "warpsim exec: " << ending_text(r);
  if (r.status != runner::ProgramStatus::bad_input) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", r.seconds);
    out << " (" << seconds << " s)";
  }
  out << "\n";
  // Why the exit status is what exec_exit_status makes it, when the program returned 0.
  if (r.status != runner::ProgramStatus::exited || r.exit_code != 0) return;
  const auto launches_were = [](std::uint64_t n) {
    return std::to_string(n) + (n == 1 ? " launch was" : " launches were");
  };
  const auto finding = [](const char* reported) {
    return std::string(": a finding under --check, as compute-sanitizer reports ") + reported +
           ": exit status " + std::to_string(runner::kExitFindings) + "\n";
  };
  if (r.memory_finding_count() != 0) {
    out << "warpsim exec: the memory checks found something (above: a race, an uninitialised "
           "read, or an access outside an allocation): exit status "
        << runner::kExitFindings << "\n";
  } else if (r.checked && r.refused_launch_count() != 0) {
    out << "warpsim exec: " << launches_were(r.refused_launch_count())
        << " refused (above: invalid_configuration, as a GPU refuses it) and the program went on"
        << finding("the launch's error");
  } else if (r.checked && !r.refused_calls.empty()) {
    out << "warpsim exec: a runtime call was refused (above) and the program returned 0"
        << finding("the call's error");
  } else if (r.checked && r.host_memory_launch_count() != 0) {
    out << "warpsim exec: " << launches_were(r.host_memory_launch_count())
        << " given host memory (above), which a GPU kernel faults on "
           "(docs/gpu-runs/host-memory-in-kernel.txt)"
        << finding("the access");
  } else if (diagnostics != 0) {
    out << "warpsim exec: the kernels misused warp-level operations (above): exit status "
        << runner::kExecKernelProblem << "\n";
  }
}

json exec_json(const std::vector<std::string>& files, const runner::ProgramResult& r) {
  json out;
  out["file"] = files.empty() ? std::string() : files.front();
  out["files"] = files;
  out["status"] = runner::to_string(r.status);
  out["exit_code"] = r.status == runner::ProgramStatus::exited ? json(r.exit_code) : json();
  out["signal"] = r.signal != 0 ? json(r.signal) : json();
  out["message"] = r.message;
  out["warpsim_exit_status"] = runner::exec_exit_status(r);
  out["seconds"] = r.seconds;
  out["diagnostics"] = r.diagnostic_count();
  out["refused_calls"] = r.refused_calls;
  out["launches"] = json::array();
  for (const runner::ProgramLaunch& launch : r.launches) {
    const program::LaunchRecord& rec = launch.record;
    json item{{"index", rec.index},
              {"kernel", rec.kernel},
              {"file", rec.file},
              {"line", rec.line},
              {"grid", json::array({rec.grid.x, rec.grid.y, rec.grid.z})},
              {"block", json::array({rec.block.x, rec.block.y, rec.block.z})},
              {"shared_bytes", rec.shared_bytes},
              {"status", rec.status},
              {"message", rec.message},
              {"steps", rec.steps},
              {"diagnostics", diagnostics_json(launch.trace, rec.grid)},
              {"host_pointer_args", rec.host_pointer_args}};
    if (rec.parent) {
      item["parent"] = *rec.parent;  // as "index"
      item["depth"] = rec.depth;
    }
    if (!rec.trace_file.empty() && launch.trace.steps.size() != 0) item["trace"] = rec.trace_file;
    out["launches"].push_back(std::move(item));
  }
  return out;
}

ProgramComparison compare_programs(const std::string& sim_stdout, int sim_status,
                                   const std::string& gpu_stdout, int gpu_status) {
  ProgramComparison c;
  c.same_stdout = sim_stdout == gpu_stdout;
  c.same_exit_status = sim_status == gpu_status;
  if (!c.same_stdout) {
    const std::vector<std::string> sim = lines_of(sim_stdout), gpu = lines_of(gpu_stdout);
    std::size_t i = 0;
    while (i < sim.size() && i < gpu.size() && sim[i] == gpu[i]) ++i;
    c.first_different_line = i + 1;
    c.sim_line = i < sim.size() ? sim[i] : "";
    c.gpu_line = i < gpu.size() ? gpu[i] : "";
  }
  return c;
}

void write_comparison_text(std::ostream& out, const ProgramComparison& c, int sim_status,
                           int gpu_status) {
  out << "warpsim exec --gpu: stdout " << (c.same_stdout ? "identical" : "differs")
      << ", exit status " << (c.same_exit_status ? "identical" : "differs") << " (simulator "
      << sim_status << ", GPU " << gpu_status << ")\n";
  if (!c.same_stdout) {
    out << "  first difference at line " << c.first_different_line << ":\n"
        << "    simulator: " << c.sim_line << "\n"
        << "    GPU:       " << c.gpu_line << "\n";
  }
}

void write_buffers_comparison_text(std::ostream& out, std::string_view against,
                                   const runner::ProgramBuffersComparison& c,
                                   std::uint64_t ulp_tolerance) {
  const std::uint64_t identical = c.identical_count();
  const std::uint64_t close = c.within_tolerance_count();
  const std::uint64_t other = c.buffers.size() - identical - close;
  out << "warpsim exec " << against << ": buffers after every launch: " << c.sim_launches << " launch"
      << (c.sim_launches == 1 ? "" : "es") << ", " << c.buffers.size() << " buffer"
      << (c.buffers.size() == 1 ? "" : "s") << " compared: " << identical << " identical";
  if (close != 0) out << ", " << close << " within " << ulp_tolerance << " ULPs";
  if (other != 0) out << ", " << other << " not matching";
  out << "\n";
  constexpr std::size_t kShown = 5;
  std::size_t shown = 0;
  for (const runner::LaunchBufferComparison& b : c.buffers) {
    if (b.matches()) continue;
    if (shown++ == kShown) {
      out << "  ... and " << (other - kShown) << " more\n";
      break;
    }
    out << "  launch " << b.launch + 1 << " (" << b.kernel << "), argument " << b.arg + 1 << " ("
        << b.type << "): ";
    if (!b.problem.empty()) {
      out << b.problem << "\n";
      continue;
    }
    out << b.differing << " of " << b.elements << " elements differ";
    if (b.first_index) {
      out << ", the first at element " << *b.first_index << ": simulator " << b.sim_value
          << ", GPU " << b.gpu_value;
    }
    if (b.max_ulp != 0) out << " (largest distance " << b.max_ulp << " ULPs)";
    if (b.same_elements_reordered) {
      out << "; both hold the same elements in another order, as when warps take output slots in "
             "the order they run (atomicAdd): the GPU's order is not reproducible";
    }
    out << "\n";
  }
  for (const std::string& problem : c.problems) out << "  " << problem << "\n";
  if (c.gpu_only_buffers != 0) {
    out << "  (" << c.gpu_only_buffers
        << " pointer arguments were placed on the GPU only, in memory the simulator does not "
           "count as an allocation, such as a __device__ variable's address: not compared)\n";
  }
  if (c.sim_launches_without_chevrons != 0) {
    out << "  launches made without <<<>>> not compared: " << c.sim_launches_without_chevrons
        << " (by cudaLaunchKernel, cudaLaunchCooperativeKernel or cudaLaunchKernelEx, or inside a "
           "library's header such as cub's: the GPU side sees only the program's own <<<>>> "
           "launches)\n";
  }
  if (c.graph_launches_not_compared()) {
    out << "  launches inside graphs not compared: " << c.sim_graph_launches
        << " kernel run" << (c.sim_graph_launches == 1 ? "" : "s")
        << " in the simulator's graph launches, " << c.gpu_graph_launches << " launch"
        << (c.gpu_graph_launches == 1 ? "" : "es")
        << " captured into graphs on the GPU (the GPU side records no buffers inside a graph; "
           "buffers after later launches hold the graphs' results)\n";
  }
}

json buffers_comparison_json(const runner::ProgramBuffersComparison& c) {
  json out;
  out["launches"] = c.sim_launches;
  out["gpu_launches"] = c.gpu_launches;
  out["buffers"] = c.buffers.size();
  out["identical"] = c.identical_count();
  out["within_tolerance"] = c.within_tolerance_count();
  out["matches"] = c.matches();
  json differing = json::array();
  for (const runner::LaunchBufferComparison& b : c.buffers) {
    if (b.matches()) continue;
    json d;
    d["launch"] = b.launch;  // host launches counted (the GPU's hooks see no launch from kernel code)
    d["kernel"] = b.kernel;
    d["arg"] = b.arg;
    d["type"] = b.type;
    if (!b.problem.empty()) {
      d["problem"] = b.problem;
    } else {
      d["elements"] = b.elements;
      d["differing"] = b.differing;
      if (b.first_index) d["first_index"] = *b.first_index;
      d["sim"] = b.sim_value;
      d["gpu"] = b.gpu_value;
      d["max_ulp"] = b.max_ulp;
      d["same_elements_reordered"] = b.same_elements_reordered;
    }
    differing.push_back(std::move(d));
  }
  out["not_matching"] = std::move(differing);
  out["problems"] = c.problems;
  out["gpu_only_buffers"] = c.gpu_only_buffers;
  out["graph_launches_not_compared"] = {{"simulator", c.sim_graph_launches},
                                        {"gpu", c.gpu_graph_launches}};
  out["launches_without_chevrons_not_compared"] = c.sim_launches_without_chevrons;
  return out;
}

}  // namespace warpsim::cli
