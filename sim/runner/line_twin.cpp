// object_with_lines (kernel_compiler.hpp): a plain kernel object's twin with line information,
// built when a stop needs a line, used only when its code is the object's, byte for byte.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "kernel_compiler.hpp"
#include "subprocess.hpp"
#include "warpsim/elf_sections.hpp"

namespace warpsim::runner {
namespace {

struct CodeSection {
  std::string name;
  std::uint64_t address = 0;
  std::string bytes;
  bool operator==(const CodeSection&) const = default;
};

// The executable sections of a 64-bit ELF object, in order; nullopt when it is not one.
std::optional<std::vector<CodeSection>> code_sections(const std::string& path) {
  const std::optional<std::string> image = read_file_if_any(path);
  if (!image) return std::nullopt;
  const auto sections = elf_section_headers(*image);
  if (!sections) return std::nullopt;
  std::vector<CodeSection> code;
  for (const Elf64_Shdr& section : *sections) {
    if ((section.sh_flags & SHF_EXECINSTR) == 0) continue;
    const auto bytes = elf_section_bytes(*image, section);
    const auto name = elf_section_name(*image, *sections, section);
    if (!bytes || !name) return std::nullopt;
    code.push_back({std::string(*name), section.sh_addr, std::string(*bytes)});
  }
  return code;
}

}  // namespace

Expected<std::string> object_with_lines(const CompiledKernel& compiled) {
  if (compiled.line_twin == nullptr) return compiled.shared_object;
  const CompiledKernel::LineTwin& twin = *compiled.line_twin;
  const auto object_code = code_sections(compiled.shared_object);
  if (!object_code) return fail("cannot read the code of " + compiled.shared_object);
  const auto same_code = [&](const std::string& path) {
    const auto code = code_sections(path);
    return code && *code == *object_code;
  };
  if (same_code(twin.object)) return twin.object;

  std::vector<std::string> argv = twin.argv;
  const std::string temporary = twin.object + temporary_suffix();
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == "-o") argv[i + 1] = temporary;
  }
  const ProcessSandbox box{twin.sandbox ? &*twin.sandbox : nullptr, twin.writable, twin.readable};
  const ProcessOutput run = run_process(argv, box);
  if (!run.started || run.exit_code != 0) {
    std::remove(temporary.c_str());
    return fail("the kernel's build with line information failed: " + run.output);
  }
  if (!same_code(temporary)) {
    std::remove(temporary.c_str());
    return fail("the kernel's build with line information has other code than the one that ran");
  }
  if (std::rename(temporary.c_str(), twin.object.c_str()) != 0) {
    const std::string error = std::strerror(errno);
    std::remove(temporary.c_str());
    return fail("cannot keep " + twin.object + ": " + error);
  }
  return twin.object;
}

}  // namespace warpsim::runner
