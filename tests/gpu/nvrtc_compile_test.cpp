// NVRTC compiles for an explicit architecture: no device needed.
#include <doctest/doctest.h>

#include <algorithm>
#include <future>
#include <string>
#include <vector>

#include "nvrtc_compile.hpp"
#include "vectors_record.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

namespace {

CompileOptions for_sm(int sm) {
  CompileOptions options;
  options.sm = sm;
  return options;
}

bool is_elf(const std::vector<char>& image) {
  return image.size() > 4 && image[0] == 0x7f && image[1] == 'E' && image[2] == 'L' && image[3] == 'F';
}

}  // namespace

TEST_CASE("NVRTC reports its version and the architectures it targets") {
  const int version = nvrtc_version();
  CHECK(version >= 12000);
  CHECK(version % 10 == 0);
  const auto sms = nvrtc_supported_sms();
  CHECK(std::find(sms.begin(), sms.end(), 90) != sms.end());
  CHECK(std::is_sorted(sms.begin(), sms.end()));
  CHECK_FALSE(cuda_include_dirs().empty());
}

TEST_CASE("a small warp kernel compiles to an sm_90 cubin without a device") {
  const char* source = R"(
extern "C" __global__ void warp_sum(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (threadIdx.x == 0) *out = v;
}
)";
  auto program = nvrtc_compile(source, "warp_sum.cu", for_sm(90));
  REQUIRE_MESSAGE(program, (program ? "" : to_string(program.error())));
  CHECK(program->sm == 90);
  CHECK(is_elf(program->cubin));
}

TEST_CASE("toolkit headers are on the include path (cuda_fp16.h, CCCL)") {
  const char* source = R"(
#include <cuda_fp16.h>
#include <cuda/std/cstdint>
extern "C" __global__ void halves(__half* data, cuda::std::uint32_t n) {
  if (threadIdx.x < n) data[threadIdx.x] = __shfl_xor_sync(0xffffffffu, data[threadIdx.x], 1);
}
)";
  auto program = nvrtc_compile(source, "halves.cu", for_sm(90));
  REQUIRE_MESSAGE(program, (program ? "" : to_string(program.error())));
  CHECK(is_elf(program->cubin));
}

TEST_CASE("a compile error shows the compiler's message with the file name and line") {
  const char* source = "extern \"C\" __global__ void k(int* out) {\n"
                       "  int fine = 1;\n"
                       "  *out = fine + undeclared_thing;\n"
                       "}\n";
  auto program = nvrtc_compile(source, "student_kernel.cu", for_sm(90));
  REQUIRE_FALSE(program);
  const Error& error = program.error();
  CHECK(error.kind == ErrorKind::compile);
  CHECK(error.message.find('\n') == std::string::npos);
  CHECK(error.message.find("student_kernel.cu") != std::string::npos);
  CHECK(error.details.find("student_kernel.cu(3)") != std::string::npos);
  CHECK(error.details.find("undeclared_thing") != std::string::npos);
  CHECK(to_string(error).find("student_kernel.cu(3)") != std::string::npos);
}

TEST_CASE("an architecture NVRTC cannot target is refused in one line") {
  auto program = nvrtc_compile("__global__ void k() {}", "k.cu", for_sm(12));
  REQUIRE_FALSE(program);
  CHECK(program.error().kind == ErrorKind::bad_input);
  CHECK(program.error().message.find("sm_12") != std::string::npos);
  CHECK(program.error().message.find('\n') == std::string::npos);
}

TEST_CASE("every vector kernel compiles for sm_90") {
  const auto pairs = vector_op_types(90);
  std::vector<std::future<std::string>> jobs;  // NVRTC is thread-safe; compile a few at once
  for (const OpType& pair : pairs) {
    jobs.push_back(std::async(std::launch::async, [pair] {
      auto program = nvrtc_compile(vector_kernel_source(pair.op, pair.type),
                                   vector_kernel_file_name(pair.op, pair.type), for_sm(90));
      if (!program) return to_string(program.error());
      return is_elf(program->cubin) ? std::string() : std::string("no cubin");
    }));
    if (jobs.size() == 4) {
      for (auto& job : jobs) {
        const std::string failure = job.get();
        CHECK_MESSAGE(failure.empty(), failure);
      }
      jobs.clear();
    }
  }
  for (auto& job : jobs) {
    const std::string failure = job.get();
    CHECK_MESSAGE(failure.empty(), failure);
  }
  CHECK(vector_kernel_file_name(Op::shfl_idx, ValueType::i32) == "warpsim_vectors_shfl_sync_i32.cu");
  CHECK(vector_kernel_file_name(Op::ballot, ValueType::none) == "warpsim_vectors_ballot_sync.cu");
}
