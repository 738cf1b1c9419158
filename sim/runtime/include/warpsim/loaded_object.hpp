// The loaded object (the program or a shared library) whose memory holds an address: its file,
// to read its symbol tables from (warpsim/elf_sections.hpp), and its load bias.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <cstdint>
#include <optional>
#include <string>

namespace warpsim {

struct LoadedObject {
  std::string path;         // "/proc/self/exe" for the program itself
  std::uintptr_t bias = 0;  // what its symbols' values are offset by in memory
};

// nullopt when no loaded object holds `address`.
inline std::optional<LoadedObject> loaded_object_holding(const void* address) {
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(address, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 ||
      map == nullptr) {
    return std::nullopt;
  }
  return LoadedObject{info.dli_fname != nullptr && info.dli_fname[0] != '\0' ? info.dli_fname
                                                                             : "/proc/self/exe",
                      map->l_addr};
}

}  // namespace warpsim
