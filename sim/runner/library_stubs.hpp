// What a program calls that warpsim does not have: a CUDA library's functions (cuBLAS, cuFFT,
// cuRAND's host API, cuSPARSE, cuSOLVER, NVRTC, NPP, ...) and the CUDA runtime and driver API
// functions the shim declares without simulating (textures, graphs, IPC, driver-API modules).
// Their headers compile (the toolkit's own, found after the shim); a call would be an undefined
// symbol at link time. For each such symbol the link gets a generated stub that stops the program
// when it is reached, naming the function and the caller's line (warpsim_not_simulated in
// warpsim/program_runtime.hpp): a program that never calls it runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpsim::runner {

struct MissingFunction {
  std::string symbol;  // cublasCreate_v2
  std::string what;    // cuBLAS: "<what> is not simulated: <symbol> at FILE:LINE"
};

// What the library or API named by a C symbol is, for the message; "" when warpsim does not stub
// it (a symbol of no CUDA library: the user's own missing function stays a link error).
std::string stubbed_library_of(std::string_view symbol);

// The undefined symbols a GNU ld or lld error output names ("undefined reference to `name'",
// "undefined symbol: name") that stubbed_library_of knows, each once, in order of appearance.
std::vector<MissingFunction> stubbable_undefined_symbols(std::string_view linker_output);

// C source defining one stub per function, each calling warpsim_not_simulated with its own
// return address.
std::string library_stubs_source(const std::vector<MissingFunction>& functions);

}  // namespace warpsim::runner
