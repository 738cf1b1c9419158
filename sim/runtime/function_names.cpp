// function_name_at (warpsim/function_names.hpp): the object's symbol table read once per object,
// names kept per address.
#include "warpsim/function_names.hpp"

#include <cxxabi.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/elf_sections.hpp"
#include "warpsim/loaded_object.hpp"

namespace warpsim {
namespace {

// "void a::b::K<int, (c::d)3>(int*, e::f<g>)" -> "a::K"; a name with no namespace stays whole.
std::string short_name(const std::string& demangled) {
  // The name ends where its template arguments or parameters begin, outside any brackets.
  int depth = 0;
  std::size_t end = demangled.size();
  std::size_t start = 0;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (depth == 0 && (c == '<' || c == '(')) {
      end = i;
      break;
    }
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (depth == 0 && c == ' ') start = i + 1;  // past the return type
  }
  const std::string qualified = demangled.substr(start, end - start);
  const std::size_t first = qualified.find("::");
  const std::size_t last = qualified.rfind("::");
  if (first == std::string::npos) return qualified;
  if (first == last) return qualified;
  return qualified.substr(0, first) + qualified.substr(last);
}

struct FunctionSymbol {
  std::uintptr_t begin = 0, end = 0;  // in the object, before its load bias
  std::string raw;
};

// The functions of the object at `path`, by start.
std::vector<FunctionSymbol> function_symbols(const std::string& path) {
  std::vector<FunctionSymbol> found;
  std::ifstream in(path, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto sections = elf_section_headers(image);
  if (!sections) return found;
  elf_for_each_symbol(image, *sections, [&](const Elf64_Sym& symbol, const char* name) {
    if (ELF64_ST_TYPE(symbol.st_info) == STT_FUNC && symbol.st_size != 0) {
      found.push_back({symbol.st_value, symbol.st_value + symbol.st_size, name});
    }
    return true;
  });
  return found;
}

struct Names {
  std::mutex mutex;
  std::map<std::string, std::vector<FunctionSymbol>> objects;  // by path
  std::map<const void*, std::string> by_address;
};

}  // namespace

const char* function_name_at(const void* address, const char* fallback) {
  static Names* names = new Names;  // never destroyed: names outlive static destructors
  std::lock_guard<std::mutex> lock(names->mutex);
  if (const auto known = names->by_address.find(address); known != names->by_address.end()) {
    return known->second.empty() ? fallback : known->second.c_str();
  }
  std::string& name = names->by_address[address];
  const std::optional<LoadedObject> holder = loaded_object_holding(address);
  if (!holder) return fallback;
  auto object = names->objects.find(holder->path);
  if (object == names->objects.end()) {
    object = names->objects.emplace(holder->path, function_symbols(holder->path)).first;
  }
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(address) - holder->bias;
  for (const FunctionSymbol& symbol : object->second) {
    if (offset < symbol.begin || offset >= symbol.end) continue;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(
        abi::__cxa_demangle(symbol.raw.c_str(), nullptr, nullptr, &status), std::free);
    name = short_name(status == 0 && demangled ? demangled.get() : symbol.raw);
    break;
  }
  return name.empty() ? fallback : name.c_str();
}

}  // namespace warpsim
