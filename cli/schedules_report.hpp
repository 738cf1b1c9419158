// What `run --schedules N` and `exec --schedules N` print: each schedule with its flags, what it
// found and how its buffers (or the program's output) differ from the first schedule's; the
// findings of the first schedule that has any; and which schedule to rerun alone.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "trace_text.hpp"
#include "warpsim/schedules.hpp"

namespace warpsim::cli {

void write_kernel_schedules_text(std::ostream& out, const runner::KernelScheduleExploration& e,
                                 const TextStyle& style);
nlohmann::ordered_json kernel_schedules_json(const runner::KernelScheduleExploration& e);

void write_program_schedules_text(std::ostream& out, const runner::ProgramScheduleExploration& e,
                                  const TextStyle& style);
nlohmann::ordered_json program_schedules_json(const runner::ProgramScheduleExploration& e);

}  // namespace warpsim::cli
