#include "warpsim/code_lines.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <map>
#include <sstream>

namespace warpsim::runtime {
namespace {

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// The shim's headers and the system's: an access there is reported at its caller's line.
bool library_file(const std::string& file) {
  const bool shim = file.find("/warpsim/") != std::string::npos &&
                    (ends_with(file, ".hpp") || ends_with(file, ".inc") || ends_with(file, ".h"));
  return shim || file.rfind("/usr/", 0) == 0 || file.front() == '<';
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// addr2line -i -a over `offsets` of `object`: each address's best frame.
void locate_in(const std::string& object,
               const std::vector<std::pair<std::uintptr_t, std::size_t>>& offsets,
               std::vector<CodeLine>& lines) {
  std::ostringstream command;
  command << "addr2line -i -a -e " << shell_quoted(object);
  for (const auto& [offset, index] : offsets) command << " 0x" << std::hex << offset;
  command << " 2>/dev/null";
  FILE* pipe = popen(command.str().c_str(), "r");
  if (pipe == nullptr) return;
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    output.append(buffer, n);
  pclose(pipe);

  std::istringstream in(output);
  std::size_t which = 0;
  bool started = false, chosen = false;
  CodeLine fallback;
  const auto settle = [&] {
    if (started && !chosen && which < offsets.size()) lines[offsets[which].second] = fallback;
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("0x", 0) == 0) {
      settle();
      if (started) ++which;
      started = true;
      chosen = false;
      fallback = {};
      continue;
    }
    if (!started || chosen || which >= offsets.size()) continue;
    const std::optional<CodeLine> frame = parse_code_line(line);
    if (!frame) continue;
    if (fallback.file.empty()) fallback = *frame;
    if (!library_file(frame->file)) {
      lines[offsets[which].second] = *frame;
      chosen = true;
    }
  }
  settle();
}

}  // namespace

std::optional<CodeLine> parse_code_line(std::string text) {
  text = text.substr(0, text.find(" (discriminator"));
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || text.compare(0, 2, "??") == 0)
    return std::nullopt;
  CodeLine out;
  try {
    out.line = static_cast<std::uint32_t>(std::stoul(text.substr(colon + 1)));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  out.file = text.substr(0, colon);
  if (out.line == 0) return std::nullopt;
  return out;
}

std::vector<CodeLine> code_lines(const std::vector<std::uintptr_t>& return_addresses) {
  std::vector<CodeLine> lines(return_addresses.size());
  std::map<std::string, std::vector<std::pair<std::uintptr_t, std::size_t>>> by_object;
  for (std::size_t i = 0; i < return_addresses.size(); ++i) {
    const std::uintptr_t pc = return_addresses[i] - 1;  // inside the call instruction
    Dl_info info{};
    link_map* map = nullptr;
    if (dladdr1(reinterpret_cast<void*>(pc), &info, reinterpret_cast<void**>(&map),
                RTLD_DL_LINKMAP) == 0 ||
        map == nullptr || info.dli_fname == nullptr) {
      continue;
    }
    std::string object = info.dli_fname;
    if (object.empty()) object = "/proc/self/exe";
    by_object[object].emplace_back(pc - map->l_addr, i);
  }
  for (const auto& [object, offsets] : by_object) locate_in(object, offsets, lines);
  return lines;
}

}  // namespace warpsim::runtime
