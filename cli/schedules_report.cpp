#include "schedules_report.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>

#include "run_report.hpp"
#include "warpsim/text_lines.hpp"

namespace warpsim::cli {

using json = nlohmann::ordered_json;

namespace {

std::string element_text(runner::ElementType type, std::uint64_t bits) {
  const runner::ShownElement shown = runner::shown_element(type, bits);
  return format_element(shown.bits, shown.type);
}

// "the buffer of --arg 2 differs in 3 of its elements (the first: element 0, 256 in schedule 1,
// 192 here)"
std::string difference_text(const runner::BufferDifference& d) {
  return "the buffer of " + runner::buffer_label(d.arg, d.field) + " differs in " +
         std::to_string(d.elements) + (d.elements == 1 ? " element" : " elements") +
         " (element " + std::to_string(d.first_element) + ": " +
         element_text(d.type, d.first_bits) + " in schedule 1, " + element_text(d.type, d.bits) +
         " here)";
}


std::uint64_t memory_findings(const Trace& trace) {
  return static_cast<std::uint64_t>(
      std::count_if(trace.diagnostics.begin(), trace.diagnostics.end(),
                    [](const Diagnostic& d) { return runner::is_memory_finding(d.kind); }));
}

std::string findings_text(std::uint64_t diagnostics, std::uint64_t memory) {
  if (diagnostics == 0) return "nothing found";
  std::string text = std::to_string(diagnostics) + (diagnostics == 1 ? " diagnostic" : " diagnostics");
  if (memory != 0) text += " (" + std::to_string(memory) + " memory " + (memory == 1 ? "finding)" : "findings)");
  return text;
}

json schedule_json(const runner::Schedule& s, std::size_t index) {
  return {{"index", index + 1},
          {"policy", s.policy == ConvergencePolicy::interleaved ? "interleaved" : "maximal"},
          {"seed", s.seed},
          {"order_seed", s.order_seed},
          {"flags", runner::schedule_flags(s)}};
}

}  // namespace

void write_kernel_schedules_text(std::ostream& out, const runner::KernelScheduleExploration& e,
                                 const TextStyle& style) {
  if (e.runs.empty()) return;
  const runner::KernelFileResult& first = e.runs.front().result;
  out << first.kernel << "<<<" << shape_text(first.grid) << ", " << shape_text(first.block)
      << ">>> under " << e.runs.size() << (e.runs.size() == 1 ? " schedule" : " schedules") << "\n";
  const runner::KernelScheduleRun* first_finding = nullptr;
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const runner::KernelScheduleRun& run = e.runs[i];
    out << "  " << i + 1 << ". " << runner::schedule_flags(run.schedule) << ": "
        << runner::to_string(run.result.status) << ", "
        << findings_text(run.result.trace.diagnostics.size(), memory_findings(run.result.trace));
    if (!run.result.message.empty()) out << "; " << run.result.message;
    if (i > 0 && run.differences.empty() && run.result.status == runner::RunStatus::completed &&
        first.status == runner::RunStatus::completed) {
      out << "; buffers as in schedule 1";
    }
    out << "\n";
    for (const runner::BufferDifference& d : run.differences) out << "       " << difference_text(d) << "\n";
    if (first_finding == nullptr && !run.result.trace.diagnostics.empty()) first_finding = &run;
  }
  out << "buffers after schedule 1:\n";
  for (const runner::OutputBuffer& b : first.buffers) {
    out << "  " << runner::buffer_label(b.arg, b.field) << " " << runner::to_string(b.type) << "["
        << b.count() << "] = " << buffer_text(b) << "\n";
  }
  if (first_finding != nullptr) {
    out << "diagnostics of schedule "
        << (first_finding - e.runs.data()) + 1 << " (" << runner::schedule_flags(first_finding->schedule)
        << "):\n";
    for (const Diagnostic& d : first_finding->result.trace.diagnostics) {
      out << "  ";
      print_diagnostic(out, first_finding->result.trace, d, style);
    }
  }
  const auto differs = std::find_if(e.runs.begin(), e.runs.end(),
                                    [](const runner::KernelScheduleRun& r) { return !r.differences.empty(); });
  if (differs != e.runs.end()) {
    out << "the buffers depend on the schedule: rerun schedule " << (differs - e.runs.begin()) + 1
        << " alone with " << runner::schedule_flags(differs->schedule) << "\n";
  } else if (!e.found_something()) {
    out << "every schedule left the same buffers and found nothing\n";
  }
}

json kernel_schedules_json(const runner::KernelScheduleExploration& e) {
  json out;
  out["schedules"] = json::array();
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const runner::KernelScheduleRun& run = e.runs[i];
    json item = schedule_json(run.schedule, i);
    item["status"] = runner::to_string(run.result.status);
    item["exit_status"] = run.result.exit_status();
    item["message"] = run.result.message;
    item["steps"] = run.result.steps;
    item["diagnostics"] = diagnostics_json(run.result.trace, run.result.grid);
    item["differences"] = json::array();
    for (const runner::BufferDifference& d : run.differences) {
      const runner::ShownElement a = runner::shown_element(d.type, d.first_bits);
      const runner::ShownElement b = runner::shown_element(d.type, d.bits);
      item["differences"].push_back({{"arg", d.arg},
                                     {"field", d.field},
                                     {"elements", d.elements},
                                     {"first_element", d.first_element},
                                     {"first_schedule_value", format_element(a.bits, a.type)},
                                     {"value", format_element(b.bits, b.type)}});
    }
    out["schedules"].push_back(std::move(item));
  }
  out["found_something"] = e.found_something();
  out["exit_status"] = e.exit_status();
  return out;
}

void write_program_schedules_text(std::ostream& out, const runner::ProgramScheduleExploration& e,
                                  const TextStyle& style) {
  if (e.runs.empty()) return;
  out << "warpsim exec --schedules: " << e.runs.size()
      << (e.runs.size() == 1 ? " schedule" : " schedules") << "\n";
  const runner::ProgramScheduleRun* first_finding = nullptr;
  const runner::ProgramScheduleRun* first_difference = nullptr;
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const runner::ProgramScheduleRun& run = e.runs[i];
    const runner::ProgramResult& r = run.result;
    std::uint64_t memory = 0;
    for (const runner::ProgramLaunch& launch : r.launches) memory += memory_findings(launch.trace);
    out << "  " << i + 1 << ". " << runner::schedule_flags(run.schedule) << ": "
        << (r.status == runner::ProgramStatus::exited ? "exited with status " + std::to_string(r.exit_code)
                                                      : r.message)
        << ", " << r.launches.size() << (r.launches.size() == 1 ? " launch, " : " launches, ")
        << findings_text(r.diagnostic_count(), memory);
    if (i > 0) {
      if (!run.same_stdout) out << "; its output differs from schedule 1's";
      if (!run.same_exit_status) out << "; its exit status differs from schedule 1's";
      if (run.same_stdout && run.same_exit_status) out << "; output as in schedule 1";
    }
    out << "\n";
    if (!run.same_stdout) {
      const std::vector<std::string> base = lines_of(e.runs.front().result.program_stdout);
      const std::vector<std::string> here = lines_of(r.program_stdout);
      std::size_t k = 0;
      while (k < base.size() && k < here.size() && base[k] == here[k]) ++k;
      out << "       line " << k + 1 << " of its output: "
          << (k < here.size() ? "\"" + here[k] + "\"" : "(none)") << ", schedule 1's: "
          << (k < base.size() ? "\"" + base[k] + "\"" : "(none)") << "\n";
    }
    if (first_finding == nullptr && r.diagnostic_count() != 0) first_finding = &run;
    if (first_difference == nullptr && (!run.same_stdout || !run.same_exit_status)) first_difference = &run;
  }
  if (first_finding != nullptr) {
    out << "diagnostics of schedule " << (first_finding - e.runs.data()) + 1 << " ("
        << runner::schedule_flags(first_finding->schedule) << "):\n";
    for (const runner::ProgramLaunch& launch : first_finding->result.launches) {
      for (const Diagnostic& d : launch.trace.diagnostics) {
        out << "  launch " << launch.record.index + 1 << " (" << launch.record.kernel << "): ";
        print_diagnostic(out, launch.trace, d, style);
      }
    }
  }
  if (first_difference != nullptr) {
    out << "the program's output depends on the schedule: rerun schedule "
        << (first_difference - e.runs.data()) + 1 << " alone with "
        << runner::schedule_flags(first_difference->schedule) << "\n";
  } else if (!e.found_something()) {
    out << "every schedule printed the same and found nothing\n";
  }
}

json program_schedules_json(const runner::ProgramScheduleExploration& e) {
  json out;
  out["schedules"] = json::array();
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const runner::ProgramScheduleRun& run = e.runs[i];
    json item = schedule_json(run.schedule, i);
    item["status"] = runner::to_string(run.result.status);
    item["exit_code"] = run.result.status == runner::ProgramStatus::exited ? json(run.result.exit_code) : json();
    item["warpsim_exit_status"] = runner::exec_exit_status(run.result);
    item["stdout"] = run.result.program_stdout;
    item["same_stdout"] = run.same_stdout;
    item["same_exit_status"] = run.same_exit_status;
    item["diagnostics"] = json::array();
    for (const runner::ProgramLaunch& launch : run.result.launches) {
      for (json& d : diagnostics_json(launch.trace, launch.record.grid)) {
        d["launch"] = launch.record.index + 1;
        item["diagnostics"].push_back(std::move(d));
      }
    }
    out["schedules"].push_back(std::move(item));
  }
  out["found_something"] = e.found_something();
  out["exit_status"] = e.exit_status();
  return out;
}

}  // namespace warpsim::cli
