#include "library_stubs.hpp"

#include <algorithm>
#include <cctype>

namespace warpsim::runner {
namespace {

bool starts_with(std::string_view text, std::string_view start) {
  return text.substr(0, start.size()) == start;
}

// cuda + an upper-case letter: a CUDA runtime function (cudaMallocArray); cu + upper case: the
// driver API (cuModuleLoad).
bool api_prefix(std::string_view symbol, std::string_view prefix) {
  return starts_with(symbol, prefix) && symbol.size() > prefix.size() &&
         std::isupper(static_cast<unsigned char>(symbol[prefix.size()])) != 0;
}

bool c_identifier(std::string_view text) {
  return !text.empty() && (std::isalpha(static_cast<unsigned char>(text[0])) != 0 || text[0] == '_') &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
         });
}

}  // namespace

std::string stubbed_library_of(std::string_view symbol) {
  struct Library {
    std::string_view prefix;
    std::string_view name;
  };
  // Longest prefixes first where one starts another (cublasLt before cublas).
  static constexpr Library kLibraries[] = {
      {"cublasLt", "cuBLASLt"}, {"cublasXt", "cuBLASXt"}, {"cublas", "cuBLAS"},
      {"cufft", "cuFFT"},       {"curand", "cuRAND's host API"},
      {"cusparse", "cuSPARSE"}, {"cusolver", "cuSOLVER"}, {"nvrtc", "NVRTC"},
      {"npp", "NPP"},           {"nvjpeg", "nvJPEG"},     {"cudnn", "cuDNN"},
      {"nvJitLink", "nvJitLink"}, {"cutensor", "cuTENSOR"}, {"nccl", "NCCL"},
  };
  for (const Library& library : kLibraries) {
    if (starts_with(symbol, library.prefix)) return std::string(library.name);
  }
  // The runtime API: what the shim declares and does not simulate, by family.
  struct Family {
    std::string_view prefix;
    std::string_view what;
  };
  static constexpr Family kRuntime[] = {
      {"cudaGraphics", "graphics interop"},
      {"cudaGraphConditional", "a conditional graph node"},
      {"cudaGraphSetConditional", "a conditional graph node"},
      {"cudaGraph", "a CUDA graph"},
      {"cudaStreamBeginCapture", "stream capture (CUDA graphs)"},
      {"cudaStreamEndCapture", "stream capture (CUDA graphs)"},
      {"cudaStreamGetCapture", "stream capture (CUDA graphs)"},
      {"cudaUserObject", "a CUDA graph"},
      {"cudaIpc", "inter-process memory"},
      {"cudaImportExternal", "external memory interop"},
      {"cudaSignalExternal", "external memory interop"},
      {"cudaWaitExternal", "external memory interop"},
      {"cudaDestroyExternal", "external memory interop"},
      {"cudaExternal", "external memory interop"},
      {"cudaCreateTextureObject", "a texture"},
      {"cudaDestroyTextureObject", "a texture"},
      {"cudaGetTextureObject", "a texture"},
      {"cudaCreateSurfaceObject", "a surface"},
      {"cudaDestroySurfaceObject", "a surface"},
      {"cudaGetSurfaceObject", "a surface"},
      {"cudaMallocArray", "a CUDA array"},
      {"cudaMalloc3DArray", "a CUDA array"},
      {"cudaMallocMipmappedArray", "a mipmapped CUDA array"},
      {"cudaFreeArray", "a CUDA array"},
      {"cudaFreeMipmappedArray", "a mipmapped CUDA array"},
      {"cudaArray", "a CUDA array"},
      {"cudaMemcpyToArray", "a CUDA array"},
      {"cudaMemcpyFromArray", "a CUDA array"},
      {"cudaMemcpy2DToArray", "a CUDA array"},
      {"cudaMemcpy2DFromArray", "a CUDA array"},
      {"cudaMemcpy2DArrayToArray", "a CUDA array"},
      {"cudaMemcpyArrayToArray", "a CUDA array"},
      {"cudaGetMipmappedArrayLevel", "a mipmapped CUDA array"},
      {"cudaMemcpyPeer", "a second GPU (peer access)"},
      {"cudaDeviceEnablePeerAccess", "a second GPU (peer access)"},
      {"cudaDeviceDisablePeerAccess", "a second GPU (peer access)"},
      {"cudaMemPoolExport", "inter-process memory (a memory pool's export)"},
      {"cudaMemPoolImport", "inter-process memory (a memory pool's import)"},
      {"cudaMemPool", "a memory pool"},
      {"cudaLaunchKernelExC", "a launch of an untyped kernel pointer"},
  };
  for (const Family& family : kRuntime) {
    if (starts_with(symbol, family.prefix)) return std::string(family.what);
  }
  if (api_prefix(symbol, "cuda")) return "this CUDA runtime function";
  if (api_prefix(symbol, "cuModule") || api_prefix(symbol, "cuLibrary") ||
      api_prefix(symbol, "cuLink")) {
    return "GPU code loaded by the driver API (cubin, fatbin, PTX)";
  }
  if (api_prefix(symbol, "cuLaunch")) return "a driver-API launch";
  if (api_prefix(symbol, "cuMem")) return "the driver API's virtual memory management";
  if (api_prefix(symbol, "cu")) return "this CUDA driver API function";
  return {};
}

std::vector<MissingFunction> stubbable_undefined_symbols(std::string_view output) {
  std::vector<MissingFunction> found;
  const auto add = [&](std::string_view symbol) {
    if (!c_identifier(symbol)) return;
    std::string what = stubbed_library_of(symbol);
    if (what.empty()) return;
    for (const MissingFunction& known : found) {
      if (known.symbol == symbol) return;
    }
    found.push_back({std::string(symbol), std::move(what)});
  };
  // GNU ld: undefined reference to `name'; lld: undefined symbol: name
  for (const auto& [marker, end] : {std::pair<std::string_view, std::string_view>{
                                        "undefined reference to `", "'"},
                                    {"undefined symbol: ", "\n"}}) {
    for (std::size_t at = output.find(marker); at != std::string_view::npos;
         at = output.find(marker, at + 1)) {
      const std::size_t start = at + marker.size();
      const std::size_t stop = output.find(end, start);
      if (stop == std::string_view::npos) continue;
      add(output.substr(start, stop - start));
    }
  }
  return found;
}

std::string library_stubs_source(const std::vector<MissingFunction>& functions) {
  std::string source =
      "/* warpsim: stubs for what the program calls and warpsim does not simulate. */\n"
      "__attribute__((noreturn)) void warpsim_not_simulated(const char*, const char*, "
      "const void*);\n";
  for (std::size_t i = 0; i < functions.size(); ++i) {
    const std::string name = "warpsim_stub_" + std::to_string(i);
    const MissingFunction& f = functions[i];
    source += "void " + name + "(void) __asm__(\"" + f.symbol + "\");\n";
    source += "__attribute__((noinline, used)) void " + name +
              "(void) {\n  warpsim_not_simulated(\"" + f.what + "\", \"" + f.symbol +
              "\", __builtin_return_address(0));\n}\n";
  }
  return source;
}

}  // namespace warpsim::runner
