// The link-time stubs for what a program calls and warpsim does not simulate: which undefined
// symbols are stubbed, and what the stub says they are.
#include "runner/library_stubs.hpp"

#include <doctest/doctest.h>

using warpsim::runner::library_stubs_source;
using warpsim::runner::stubbable_undefined_symbols;
using warpsim::runner::stubbed_library_of;

TEST_CASE("each library's functions are named by the library; the user's own are not stubbed") {
  CHECK(stubbed_library_of("cublasSgemm_v2") == "cuBLAS");
  CHECK(stubbed_library_of("cublasLtMatmul") == "cuBLASLt");
  CHECK(stubbed_library_of("cufftExecC2C") == "cuFFT");
  CHECK(stubbed_library_of("curandCreateGenerator") == "cuRAND's host API");
  CHECK(stubbed_library_of("cusparseCreate") == "cuSPARSE");
  CHECK(stubbed_library_of("cusolverDnCreate") == "cuSOLVER");
  CHECK(stubbed_library_of("nvrtcCompileProgram") == "NVRTC");
  CHECK(stubbed_library_of("nppiFilter_8u_C1R") == "NPP");
  CHECK(stubbed_library_of("cudaGraphLaunch") == "a CUDA graph");
  CHECK(stubbed_library_of("cudaGraphConditionalHandleCreate") == "a conditional graph node");
  CHECK(stubbed_library_of("cudaMemPoolExportPointer") ==
        "inter-process memory (a memory pool's export)");
  CHECK(stubbed_library_of("cuMemCreate") == "the driver API's virtual memory management");
  CHECK(stubbed_library_of("cudaMallocArray") == "a CUDA array");
  CHECK(stubbed_library_of("cudaMallocMipmappedArray") == "a mipmapped CUDA array");
  CHECK(stubbed_library_of("cudaIpcGetMemHandle") == "inter-process memory");
  CHECK(stubbed_library_of("cudaSomethingNew") == "this CUDA runtime function");
  CHECK(stubbed_library_of("cuModuleLoad") == "GPU code loaded by the driver API (cubin, fatbin, PTX)");
  CHECK(stubbed_library_of("cuLaunchKernel") == "a driver-API launch");
  CHECK(stubbed_library_of("computeGold").empty());
  CHECK(stubbed_library_of("cuda").empty());
  CHECK(stubbed_library_of("cudaless_helper").empty());
}

TEST_CASE("the undefined symbols of GNU ld's and lld's output, each once, in order") {
  const std::string ld =
      "/usr/bin/ld: /tmp/a.o: in function `main':\n"
      "a.cu:25: undefined reference to `cublasCreate_v2'\n"
      "/usr/bin/ld: a.cu:27: undefined reference to `cublasSasum_v2'\n"
      "/usr/bin/ld: a.cu:30: undefined reference to `cublasCreate_v2'\n"
      "/usr/bin/ld: a.cu:31: undefined reference to `computeGold(float*, int)'\n"
      "collect2: error: ld returned 1 exit status\n";
  const auto found = stubbable_undefined_symbols(ld);
  REQUIRE(found.size() == 2);
  CHECK(found[0].symbol == "cublasCreate_v2");
  CHECK(found[0].what == "cuBLAS");
  CHECK(found[1].symbol == "cublasSasum_v2");
  const auto lld = stubbable_undefined_symbols("ld.lld: error: undefined symbol: cufftPlan1d\n");
  REQUIRE(lld.size() == 1);
  CHECK(lld[0].symbol == "cufftPlan1d");
}

TEST_CASE("a stub is a C function of the symbol's name that stops with its return address") {
  const std::string source = library_stubs_source({{"cublasCreate_v2", "cuBLAS"}});
  CHECK(source.find("__asm__(\"cublasCreate_v2\")") != std::string::npos);
  CHECK(source.find("warpsim_not_simulated(\"cuBLAS\", \"cublasCreate_v2\", "
                    "__builtin_return_address(0))") != std::string::npos);
}
