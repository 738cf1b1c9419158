// Source lines of code addresses in loaded objects, through binutils' addr2line (the objects are
// built with -g): for the memory checks, which know the return address of each checked access.
#pragma once

#include <cstdint>
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

}  // namespace warpsim::runtime
