// CUDA C++ source -> cubin with NVRTC, for one real architecture (sm_XX).
//
//   CompileOptions options;
//   options.sm = 90;                              // 0: the present device's architecture
//   auto program = nvrtc_compile(source, "kernel.cu", options);
//   if (!program) { std::fputs(to_string(program.error()).c_str(), stderr); return 2; }
//   auto module = gpu.load_module(program->cubin);
//
// A compile error comes back as ErrorKind::compile with the compiler's log in `details`; the
// log names `file_name` and its line numbers ("kernel.cu(12): error: ..."). The toolkit's header
// folders (found at configure time, those that still exist) are on the include path.
//
// C++ names: each of `options.name_expressions` (e.g. "::ns::reduce<256>", "&my_variable") is
// registered with nvrtcAddNameExpression, which also instantiates templates; after the compile,
// `program->lowered_name(expression)` is the symbol to look up in the loaded module.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpsim/expected.hpp"

namespace warpsim::gpu {

// A header NVRTC finds by name before searching the include path (its text is used as given).
struct SourceHeader {
  std::string_view name;  // as written in #include <...> or "...", e.g. "cmath"
  std::string_view text;
};

struct CompileOptions {
  int sm = 0;                        // major*10 + minor; 0 = the present device's (needs a device)
  std::vector<std::string> options;  // more NVRTC options, e.g. "-lineinfo", "-DN=4", "-std=c++20"
  std::vector<std::string> name_expressions;  // C++ names whose lowered (mangled) names are wanted
  std::vector<SourceHeader> headers;          // in-memory headers; the views must outlive the call
};

struct CompiledProgram {
  std::vector<char> cubin;  // for sm_<sm>, loadable with Gpu::load_module
  int sm = 0;
  std::string log;          // warnings; empty when none
  std::vector<std::pair<std::string, std::string>> lowered_names;  // (name expression, symbol)

  // The symbol of a name expression given in CompileOptions::name_expressions; nullptr otherwise.
  const std::string* lowered_name(std::string_view expression) const {
    for (const auto& [name, symbol] : lowered_names) {
      if (name == expression) return &symbol;
    }
    return nullptr;
  }
};

Expected<CompiledProgram> nvrtc_compile(std::string_view source, const std::string& file_name,
                                        const CompileOptions& options = {});

// NVRTC's version as CUDA encodes versions: major*1000 + minor*10 (13.0 -> 13000).
int nvrtc_version();
// Real architectures this NVRTC can target, as major*10 + minor, ascending.
std::vector<int> nvrtc_supported_sms();
// The toolkit header folders passed as -I, those of them that exist on this machine.
std::vector<std::string> cuda_include_dirs();

}  // namespace warpsim::gpu
