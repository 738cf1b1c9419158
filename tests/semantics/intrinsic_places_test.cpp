// Adding an intrinsic touches three places: its row in the intrinsic table (with its Op), its
// family's file, its shim overloads. Each test here fails, naming the intrinsic, when one of them
// is missing or disagrees with the table. (A missing row is a compile error: intrinsic_table.hpp
// static_asserts that row i describes Op i.)
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/intrinsic_probe.hpp"
#include "warp_inputs.hpp"
#include "warpsim/kernel_file.hpp"
#include "warpsim/semantics.hpp"

using namespace warpsim;

namespace {

bool evaluated_by_evaluate(IntrinsicFamily family) {
  return family != IntrinsicFamily::block_barrier && family != IntrinsicFamily::bit;
}

// The types to evaluate `op` with: every type an overload records (none included).
std::vector<ValueType> recorded_types(Op op) {
  std::vector<ValueType> types;
  for (int t = 0; t < kValueTypeCount; ++t)
    if (records_type(op, static_cast<ValueType>(t))) types.push_back(static_cast<ValueType>(t));
  if (types.empty()) types.push_back(ValueType::none);
  return types;
}

}  // namespace

TEST_CASE("every row's facts agree with each other (table row)") {
  for (const IntrinsicInfo& info : intrinsic_table()) {
    CAPTURE(info.name);
    if (!info.op) {
      CHECK(info.family == IntrinsicFamily::bit);
      continue;
    }
    CHECK(info.min_sm >= kOldestSm);
    CHECK((info.operand == OperandKind::none) == info.operand_types.empty());
    // Shuffles take an argument, and so does a named barrier (its id); nothing else does.
    CHECK(info.argument.name.empty() == !(is_shuffle(*info.op) || *info.op == Op::barrier_sync));
    CHECK(info.width == is_shuffle(*info.op));
    if (info.result == ResultKind::value) CHECK(info.operand == OperandKind::value);
    if (info.operand == OperandKind::predicate) {
      REQUIRE(info.operand_types.size() == 1);
      CHECK(info.operand_types[0].cuda_name == "int");
    }
    // Every type a call records is one the simulator evaluates.
    for (const OperandType& o : info.operand_types) CHECK(accepts_type(*info.op, o.type));
    CHECK(!cuda_overloads(info).empty());
  }
}

TEST_CASE("every op of a family that evaluate() computes has its case in the family's file") {
  // A missing case stops the process with "warpsim: evaluate(): __NAME has no case in
  // sim/semantics/FILE.cpp"; doctest then names this test and the op captured below.
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    if (!evaluated_by_evaluate(family_of(op))) continue;
    for (const ValueType type : recorded_types(op)) {
      CAPTURE(intrinsic_for(op).name);
      CAPTURE(to_string(type));
      for (const LaneMask callers : {kFullMask, LaneMask{0x0000ff0fu}}) {
        StepInputs in = test::warp_inputs(callers, callers);
        test::set_uniform(in, 1);
        StepOutputs out;
        evaluate(op, type, in, out);
        CHECK((out.undefined & ~callers) == 0u);
      }
    }
  }
}

namespace {

// Runs the probe for `sm` through `warpsim run`'s path: compiled against the shim as nvcc's device
// pass for sm_XX sees it, one block of 32 threads.
void check_probe_runs(int sm) {
  CAPTURE(sm);
  const test::IntrinsicProbe probe = test::intrinsic_probe(sm);
  namespace fs = std::filesystem;
  const fs::path file =
      fs::temp_directory_path() / ("warpsim_intrinsic_probe_" + std::to_string(::getpid()) + ".cu");
  std::ofstream(file) << probe.source;
  KernelFileRequest request;
  request.file = file.string();
  request.kernel = test::kProbeKernel;
  request.grid = {1};
  request.block = {32};
  request.args = {zeros<int>(32)};
  request.arch = "sm_" + std::to_string(sm);
  const KernelFileResult r = run_kernel_file(request);
  fs::remove(file);
  // A missing or mistyped overload: the compiler's message names the call (see the generated
  // source's "// __NAME(TYPE)" comments and static_assert texts).
  REQUIRE_MESSAGE(r.status == RunStatus::completed, r.message);
  CHECK(r.trace.diagnostics.empty());
  REQUIRE(r.trace.steps.size() == probe.calls.size());
  for (std::size_t k = 0; k < probe.calls.size(); ++k) {
    const test::ProbeCall& call = probe.calls[k];
    CAPTURE(call.label);
    CHECK(to_string(r.trace.steps[k].op) == to_string(call.op));
    CHECK(to_string(r.trace.steps[k].type) == to_string(call.type));
  }
}

}  // namespace

TEST_CASE("every intrinsic in the table has its shim overloads, each recording its op and type") {
  check_probe_runs(90);
}

TEST_CASE("the shim offers each intrinsic from the table's min_sm on (sm_70: no __reduce_*)") {
  check_probe_runs(70);
}
