// Misuse that is named, in both convergence policies, and code that looks like it but is not.
#include <doctest/doctest.h>

#include "support/launch_helpers.hpp"

#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "warpsim/cuda_shim.hpp"
#include "warpsim/launch.hpp"
#include "misuse_kernels.cuh"

using warpsim::ConvergencePolicy;
using warpsim::Diagnostic;
using warpsim::DiagnosticKind;
using warpsim::LaunchResult;
using warpsim::LaunchStatus;
using warpsim::test::shape;

namespace {

unsigned line_of(const std::string& marker) {
  std::ifstream file(std::string(WARPSIM_SOURCE_DIR) + "/tests/runtime/misuse_kernels.cuh");
  std::string text;
  for (unsigned line = 1; std::getline(file, text); ++line) {
    if (text.find("// @" + marker) != std::string::npos) return line;
  }
  FAIL("no marker @" << marker << " in misuse_kernels.cuh");
  return 0;
}

const Diagnostic* find(const LaunchResult& r, DiagnosticKind kind) {
  for (const Diagnostic& d : r.trace.diagnostics) {
    if (d.kind == kind) return &d;
  }
  return nullptr;
}

warpsim::LaunchOptions with_policy(unsigned grid, unsigned block, ConvergencePolicy policy,
                                   std::uint64_t seed = 1) {
  auto options = shape(grid, block);
  options.policy = policy;
  options.seed = seed;
  return options;
}

const char* name(ConvergencePolicy p) {
  return p == ConvergencePolicy::maximal ? "maximal" : "interleaved";
}

constexpr ConvergencePolicy kPolicies[] = {ConvergencePolicy::maximal,
                                           ConvergencePolicy::interleaved};

}  // namespace

TEST_CASE("a full-mask shuffle in a branch: the lanes that skip it and exit are named") {
  for (const ConvergencePolicy policy : kPolicies) {
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      CAPTURE(name(policy));
      CAPTURE(seed);
      std::vector<int> in(64), out(64);
      std::iota(in.begin(), in.end(), 0);
      const auto r = warpsim::launch(with_policy(1, 64, policy, seed),
                                     [&] { misuse::half_warp_full_mask(in.data(), out.data()); });
      REQUIRE(r.status == LaunchStatus::completed);
      CHECK(out[0] == 1);    // lanes 0-15 swapped with their neighbour
      CHECK(out[16] == 16);  // lanes 16-31 kept theirs
      CHECK(out[33] == 32);
      REQUIRE(r.trace.diagnostics.size() == 1);
      const Diagnostic& d = r.trace.diagnostics[0];
      CHECK(d.kind == DiagnosticKind::named_lane_exited_later);
      CHECK(d.lanes == 0xffff0000u);
      CHECK(d.where.line == line_of("branch_shfl"));
      CHECK(d.warp == 0);
      // Once per warp under maximal convergence; the interleaved policy may split the 16 lanes
      // into several calls, each named.
      CHECK(d.occurrences >= 2);
      CHECK(d.message.find("had not exited when lanes 0-15 made the call") != std::string::npos);
      CHECK(d.message.find("went past it") != std::string::npos);
      if (policy == ConvergencePolicy::maximal) CHECK(d.occurrences == 2);
    }
  }
}

TEST_CASE("a full-mask shuffle in a loop whose trip count varies by lane names the lanes that left") {
  for (const ConvergencePolicy policy : kPolicies) {
    CAPTURE(name(policy));
    std::vector<int> row(40), out(32);
    std::iota(row.begin(), row.end(), 0);
    const auto r = warpsim::launch(with_policy(1, 32, policy),
                                   [&] { misuse::lane_varying_loop(row.data(), out.data(), 40); });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(out[0] == (0 + 1) + (32 + 33));
    CHECK(out[8] == 8 + 9);
    REQUIRE(r.trace.diagnostics.size() == 1);
    const Diagnostic& d = r.trace.diagnostics[0];
    CHECK(d.kind == DiagnosticKind::named_lane_exited_later);
    CHECK(d.lanes == 0xffffff00u);
    CHECK(d.where.line == line_of("loop_shfl"));
    CHECK(d.message.find("left the loop") != std::string::npos);
  }
}

TEST_CASE("lanes that returned before a full-mask call are not named, in either policy") {
  for (const ConvergencePolicy policy : kPolicies) {
    CAPTURE(name(policy));
    std::vector<int> in(32, 4), out(32, -1);
    const auto r = warpsim::launch(with_policy(1, 32, policy), [&] {
      misuse::early_return_then_reduce(in.data(), out.data(), 24);
    });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(out[0] == 4);  // (24 * 4) / 24, three times
    CHECK(out[24] == -1);
    CHECK(r.trace.diagnostics.empty());
  }
}

TEST_CASE("lanes past the block's last thread are not named: they never existed") {
  for (const ConvergencePolicy policy : kPolicies) {
    CAPTURE(name(policy));
    std::vector<int> out(48);
    const auto r = warpsim::launch(with_policy(1, 48, policy),
                                   [&] { misuse::partial_warp_branch(out.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(out[0] == 32);
    CHECK(out[47] == 16);
    CHECK(r.trace.diagnostics.empty());
  }
}

TEST_CASE("a diagnostic repeated at one line keeps the union of its lanes and the count") {
  std::vector<int> out(32, -1);
  const auto r = warpsim::launch(shape(1, 32), [&] { misuse::tail_reduce(out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  const Diagnostic* d = find(r, DiagnosticKind::undefined_source);
  REQUIRE(d != nullptr);
  // offset 16: lanes 4-15 read lanes 20-31; 8: 12-19; 4: 16-19; 2: 18-19; 1: lane 19.
  CHECK(d->occurrences == 5);
  CHECK(d->lanes == 0x000ffff0u);
  CHECK(d->message.find("lanes 4-19 read a lane that has exited") != std::string::npos);
  CHECK(d->step == 0);  // anchored at its first occurrence
  CHECK(find(r, DiagnosticKind::named_lane_exited_later) == nullptr);  // they returned first
}

TEST_CASE("__activemask() passed as a ballot's mask is named, in both policies") {
  for (const ConvergencePolicy policy : kPolicies) {
    CAPTURE(name(policy));
    std::vector<unsigned> out(32);
    const auto r = warpsim::launch(with_policy(1, 32, policy),
                                   [&] { misuse::activemask_ballot(out.data()); });
    REQUIRE(r.status == LaunchStatus::completed);
    REQUIRE(r.trace.diagnostics.size() == 1);
    const Diagnostic& d = r.trace.diagnostics[0];
    CHECK(d.kind == DiagnosticKind::activemask_as_mask);
    CHECK(d.lanes == 0xffffffffu);
    CHECK(d.where.line == line_of("activemask_ballot"));
    CHECK(d.message.find("--policy interleaved") != std::string::npos);
    if (policy == ConvergencePolicy::maximal) {
      CHECK(out[0] == 0x55555555u);
      CHECK(d.occurrences == 1);
      CHECK(d.message.find("(lane 0 got 0xffffffff)") != std::string::npos);
    } else {
      CHECK(out[0] == 1u);  // lane 0 ran alone: its ballot names itself only
      CHECK(out[1] == 0u);
      CHECK(d.occurrences == 32);
      CHECK(d.message.find("(lane 0 got 0x00000001)") != std::string::npos);
    }
  }
}

TEST_CASE("__activemask() kept aside, and a mask built with __ballot_sync, are not named") {
  for (const ConvergencePolicy policy : kPolicies) {
    CAPTURE(name(policy));
    std::vector<unsigned> out(32);
    std::vector<int> values(32, -1);
    const auto r = warpsim::launch(with_policy(1, 32, policy), [&] {
      misuse::activemask_then_ballot_mask(out.data(), values.data());
    });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(r.trace.diagnostics.empty());
  }
}

TEST_CASE("coalesced_threads() uses __activemask() inside, legitimately: not named") {
  for (const ConvergencePolicy policy : kPolicies) {
    CAPTURE(name(policy));
    std::vector<int> in(32), list(32, 0), count(1, 0);
    for (int lane = 0; lane < 32; ++lane) in[lane] = lane % 3 == 0 ? lane + 1 : -1;
    const auto r = warpsim::launch(with_policy(1, 32, policy), [&] {
      misuse::aggregated_append(in.data(), list.data(), count.data());
    });
    REQUIRE(r.status == LaunchStatus::completed);
    CHECK(count[0] == 11);
    CHECK(r.trace.diagnostics.empty());
  }
}
