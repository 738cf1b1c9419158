// The host half: no kernel here; it calls kernels.cu's wrapper and checksum.c's C function.
#include <cstdio>
#include <vector>

#include "multi_file.h"

#if !MULTI_FILE_HEADER_FROM_OWN_FOLDER
#error "multi_file.h came from another folder"
#endif

namespace {
const char* const kTag = "main.cpp";
}

static int scale_of() { return 2; }  // kernels.cu's is 3: each file keeps its own

int main() {
  const int n = 1000;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7);
  const int device_scale = scale_on_device(in.data(), out.data(), n);
  bool passed = device_scale == 3 && scale_of() == 2 && kTag[0] == 'm';
  for (int i = 0; i < n; ++i) passed = passed && out[i] == in[i] * 3.0f;
  const double expected = 3.0 * weighted_checksum(in.data(), n);
  const double got = weighted_checksum(out.data(), n);
  std::printf("scales: device %d, host %d; checksum %.1f (expected %.1f)\n", device_scale,
              scale_of(), got, expected);
  passed = passed && got == expected;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
