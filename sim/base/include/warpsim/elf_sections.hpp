// The sections of a 64-bit ELF file read whole into memory (a kernel object, a program), each
// checked against the file's size: for the readers of a compiled object's symbols and code.
#pragma once

#include <elf.h>

#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace warpsim {

// Every section header of `image`; nullopt when it is not a 64-bit ELF file with section
// headers, or they lie past its end.
inline std::optional<std::vector<Elf64_Shdr>> elf_section_headers(std::string_view image) {
  Elf64_Ehdr header;
  if (image.size() < sizeof header) return std::nullopt;
  std::memcpy(&header, image.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_shoff == 0 || header.e_shentsize != sizeof(Elf64_Shdr) ||
      header.e_shoff + std::size_t{header.e_shnum} * sizeof(Elf64_Shdr) > image.size()) {
    return std::nullopt;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  std::memcpy(sections.data(), image.data() + header.e_shoff,
              sections.size() * sizeof(Elf64_Shdr));
  return sections;
}

// The bytes `section` holds in `image`; nullopt when they lie past its end (or it holds none
// there: SHT_NOBITS).
inline std::optional<std::string_view> elf_section_bytes(std::string_view image,
                                                         const Elf64_Shdr& section) {
  if (section.sh_type == SHT_NOBITS || section.sh_offset > image.size() ||
      section.sh_size > image.size() - section.sh_offset) {
    return std::nullopt;
  }
  return image.substr(section.sh_offset, section.sh_size);
}

// The name of `section`, one of `sections` (elf_section_headers(image)), from the file's
// section-name table; nullopt when the table or the name lies past the file's end.
inline std::optional<std::string_view> elf_section_name(std::string_view image,
                                                        const std::vector<Elf64_Shdr>& sections,
                                                        const Elf64_Shdr& section) {
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof header);
  if (header.e_shstrndx >= sections.size()) return std::nullopt;
  const std::optional<std::string_view> names = elf_section_bytes(image, sections[header.e_shstrndx]);
  if (!names || section.sh_name >= names->size()) return std::nullopt;
  const std::string_view rest = names->substr(section.sh_name);
  return rest.substr(0, rest.find('\0'));
}

// Calls `visit(symbol, name)` for each symbol of `image`'s symbol tables (SHT_SYMTAB) whose name
// lies within its string table, in order, until `visit` returns false.
template <class Visit>
void elf_for_each_symbol(std::string_view image, const std::vector<Elf64_Shdr>& sections,
                         Visit visit) {
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= sections.size()) continue;
    const std::optional<std::string_view> symbols = elf_section_bytes(image, table);
    const std::optional<std::string_view> strings = elf_section_bytes(image, sections[table.sh_link]);
    if (!symbols || !strings) continue;
    for (std::size_t k = 0; k < symbols->size() / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym symbol;
      std::memcpy(&symbol, symbols->data() + k * sizeof symbol, sizeof symbol);
      if (symbol.st_name >= strings->size()) continue;
      if (!visit(symbol, strings->data() + symbol.st_name)) return;
    }
  }
}

}  // namespace warpsim
