// CUDA C++ source -> cubin with NVRTC, for one real architecture (sm_XX).
//
//   CompileOptions options;
//   options.sm = 90;                              // 0: the present device's architecture
//   auto program = nvrtc_compile(source, "kernel.cu", options);
//   if (!program) { std::fputs(to_string(program.error()).c_str(), stderr); return 2; }
//   auto module = gpu.load_module(program->cubin);
//
// A compile error comes back as GpuErrorKind::compile with the compiler's log in `details`; the
// log names `file_name` and its line numbers ("kernel.cu(12): error: ..."). The toolkit's header
// folders (found at configure time, those that still exist) are on the include path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "expected.hpp"

namespace warpsim::gpu {

struct CompileOptions {
  int sm = 0;                        // major*10 + minor; 0 = the present device's (needs a device)
  std::vector<std::string> options;  // more NVRTC options, e.g. "-lineinfo", "-DN=4", "-std=c++20"
};

struct CompiledProgram {
  std::vector<char> cubin;  // for sm_<sm>, loadable with Gpu::load_module
  int sm = 0;
  std::string log;          // warnings; empty when none
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
