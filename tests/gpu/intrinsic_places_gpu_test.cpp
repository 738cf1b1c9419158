// The GPU side of an intrinsic's places (see tests/semantics/intrinsic_places_test.cpp): CUDA
// declares every overload the intrinsic table lists, and every op the table marks as recorded in
// GPU test vectors goes through the recorder's generator, its kernel, the vector file and the
// checker. No device needed.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "nvrtc_compile.hpp"
#include "support/intrinsic_probe.hpp"
#include "vectors_record.hpp"
#include "warpsim/vectors.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

TEST_CASE("CUDA declares every overload the intrinsic table lists from its min_sm on (NVRTC)") {
  // sm_90 has every row; sm_75 (CUDA 13's oldest) all but the sm_80 reductions, so a min_sm below
  // CUDA's own guard fails here too.
  for (const int sm : {90, 75}) {
    CAPTURE(sm);
    const test::IntrinsicProbe probe = test::intrinsic_probe(sm);
    CompileOptions options;
    options.sm = sm;
    // A row whose parameters, types or result differ from CUDA's: the message names the overload.
    const auto program = nvrtc_compile(probe.source, "warpsim_intrinsic_probe.cu", options);
    CHECK_MESSAGE(program, (program ? "" : to_string(program.error())));
  }
}

TEST_CASE("every op the table marks recorded round-trips through the vector recorder") {
  GeneratorOptions generator;
  generator.sm = 90;
  generator.cases = min_cases_for_full_coverage(90);
  std::vector<gpu::VectorCase> cases = generate_cases(generator);

  // What a GPU would return, as the simulator computes it: the recorder's nulls, match_all's pred.
  std::set<std::pair<Op, ValueType>> generated;
  for (gpu::VectorCase& c : cases) {
    generated.insert({c.op, c.type});
    StepOutputs out;
    evaluate(c.op, c.type, to_step_inputs(to_vector_case(c)), out);
    c.expect = out.value;
    c.expect_defined = c.lanes & ~undefined_result_lanes(c);
    c.expect_pred = out.pred & c.lanes;
  }
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    const IntrinsicInfo& info = intrinsic_for(op);
    CAPTURE(info.name);
    const bool recorded = info.vectors == VectorCoverage::recorded;
    CHECK(recorded == (std::count(vector_ops().begin(), vector_ops().end(), op) == 1));
    CHECK(is_vector_op(op) == (info.vectors != VectorCoverage::none));
    if (!recorded) continue;
    for (const ValueType type : vector_types(op)) {
      CAPTURE(to_string(type));
      CHECK(generated.count({op, type}) == 1);
      CHECK(vector_kernel_source(op, type).find(std::string(info.name) + "(") != std::string::npos);
    }
  }

  namespace fs = std::filesystem;
  const fs::path file =
      fs::temp_directory_path() / ("warpsim_places_" + std::to_string(::getpid()) + ".jsonl");
  VectorHeader header;
  header.device = "simulated";
  header.sm = 90;
  header.cases = cases.size();
  REQUIRE(write_recorded_vectors(file, header, cases));
  const VectorCheck check = check_vector_files({file.string()});
  fs::remove(file);
  CHECK(check.exit_status() == 0);
  CHECK(check.cases == cases.size());
  CHECK(check.problems.empty());
  CHECK(check.mismatched_lanes == 0);
}
