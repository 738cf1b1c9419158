// Source lines of code addresses in loaded objects, through binutils' addr2line (the objects are
// built with -g): for the memory checks, which know the return address of each checked access,
// and for crash reports (the runner's stop diagnostics), which know offsets in the kernel object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::runtime {

struct CodeLine {
  std::string file;  // empty when unknown
  std::uint32_t line = 0;
};

// One entry per return address: the line of the call just before it, in the outermost file that
// is neither the shim's nor a system header (a shim helper inlined into a kernel names the
// kernel's line).
std::vector<CodeLine> code_lines(const std::vector<std::uintptr_t>& return_addresses);

// For a process about to confine itself so that it can start no program (the grader's syscall
// filter): forks a helper now that runs addr2line for code_lines later, over this process's
// pipes. It takes only an object's path and hexadecimal addresses, and ends with the process.
// False when it could not be started (code_lines then runs addr2line itself).
bool start_line_helper();

// One line of addr2line's output, "file:line" (maybe with " (discriminator N)"); nullopt for
// "??:0", "0x..." address lines and the like.
std::optional<CodeLine> parse_code_line(std::string text);

}  // namespace warpsim::runtime
