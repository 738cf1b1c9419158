// shared_variables_of (warpsim/memory_checks.hpp): under the shim `__shared__` is thread_local,
// so a kernel object's __shared__ variables are its TLS symbols; the object's symbol table says
// where each lies in the object's TLS block and how large it is.
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "warpsim/elf_sections.hpp"
#include "warpsim/loaded_object.hpp"
#include "warpsim/memory_checks.hpp"

extern "C" void* __tls_get_addr(void*);  // the TLS ABI's allocator (x86-64 and AArch64 glibc)

namespace warpsim {
namespace {

struct TlsIndex {
  unsigned long module;
  unsigned long offset;
};

// The calling thread's TLS block of the object loaded at `bias`; nullptr when it has none.
std::uintptr_t tls_block(std::uintptr_t bias) {
  struct Search {
    std::uintptr_t bias;
    std::size_t module = 0;
  } search{bias};
  dl_iterate_phdr(
      [](dl_phdr_info* object, std::size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        if (object->dlpi_addr != s->bias) return 0;
        s->module = object->dlpi_tls_modid;
        return 1;
      },
      &search);
  if (search.module == 0) return 0;
  TlsIndex index{search.module, 0};
  return reinterpret_cast<std::uintptr_t>(__tls_get_addr(&index));  // allocates it if needed
}

// "reduce<256>(float*)::sdata" -> "sdata"
std::string variable_name(const char* symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(symbol, nullptr, nullptr, &status), std::free);
  std::string name = status == 0 && demangled ? demangled.get() : symbol;
  if (name.rfind("warpsim::", 0) == 0) return {};  // the shim's own
  const std::size_t colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

}  // namespace

std::vector<CheckedMemory> shared_variables_of(const void* address_in_object) {
  std::vector<CheckedMemory> found;
  const std::optional<LoadedObject> holder = loaded_object_holding(address_in_object);
  if (!holder) return found;
  std::ifstream in(holder->path, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto sections = elf_section_headers(image);
  if (!sections) return found;
  std::uintptr_t block = 0;
  elf_for_each_symbol(image, *sections, [&](const Elf64_Sym& symbol, const char* raw) {
    if (ELF64_ST_TYPE(symbol.st_info) != STT_TLS || symbol.st_size == 0) return true;
    if (std::strncmp(raw, "_ZGV", 4) == 0 || std::strncmp(raw, "_ZTH", 4) == 0 ||
        std::strncmp(raw, "_ZTW", 4) == 0) {
      return true;  // guard variables and TLS init/wrapper functions
    }
    std::string name = variable_name(raw);
    if (name.empty()) return true;
    if (block == 0) block = tls_block(holder->bias);
    if (block == 0) return false;
    found.push_back({reinterpret_cast<const void*>(block + symbol.st_value), symbol.st_size,
                     std::move(name), 0, true});
    return true;
  });
  return found;
}

}  // namespace warpsim
