// Declaration forms nvcc accepts (kernels/keyword_forms.cu) compile and mean what they mean on a
// GPU.
#include <doctest/doctest.h>

#include <vector>

#include "kernel_file_helpers.hpp"

TEST_CASE("storage keywords, attributes and pragmas in every form nvcc accepts") {
  const auto r = warpsim::test::run_shim_kernel(
      "keyword_forms.cu", "keyword_forms",
      {warpsim::iota<float>(32), warpsim::zeros<int>(8 * 32), warpsim::scalar(100)});
  REQUIRE_MESSAGE(r.status == warpsim::RunStatus::completed, r.message);
  const std::vector<int> out = r.buffer<int>(1);
  for (int t = 0; t < 32; ++t) {
    CAPTURE(t);
    int window = 0;
    for (int i = 0; i < 8; ++i) window += (t + i) % 32;
    const std::vector<int> expected{window, 496, 31, 0x3c00, t == 0 ? 13 : 14,
                                    t % 4 + 1 + 10 + 100, 5 + 1 + t, 1};
    CHECK(std::vector<int>(out.begin() + 8 * t, out.begin() + 8 * t + 8) == expected);
  }
}
