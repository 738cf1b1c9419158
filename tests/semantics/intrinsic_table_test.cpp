// The intrinsic registry: complete, no duplicates, consistent with Op.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "warpsim/intrinsic_table.hpp"

using namespace warpsim;

TEST_CASE("every op is registered by exactly one intrinsic") {
  std::map<Op, int> count;
  for (const IntrinsicInfo& info : intrinsic_table())
    if (info.op) ++count[*info.op];
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    CAPTURE(to_string(op));
    CHECK(count[op] == 1);
    CHECK(intrinsic_for(op).op == op);
  }
}

TEST_CASE("no intrinsic name is registered twice and every entry is complete") {
  std::set<std::string_view> names;
  for (const IntrinsicInfo& info : intrinsic_table()) {
    CAPTURE(info.name);
    CHECK(names.insert(info.name).second);
    CHECK(info.name.starts_with("__"));
    CHECK_FALSE(info.contract.empty());
    CHECK(info.contract.size() <= 100);
  }
}

TEST_CASE("each intrinsic's family agrees with its op") {
  for (const IntrinsicInfo& info : intrinsic_table()) {
    CAPTURE(info.name);
    CAPTURE(to_string(info.family));
    if (!info.op) {
      CHECK(info.family == IntrinsicFamily::bit);
      continue;
    }
    const Op op = *info.op;
    CHECK(is_shuffle(op) == (info.family == IntrinsicFamily::shuffle));
    CHECK(is_block_barrier(op) == (info.family == IntrinsicFamily::block_barrier));
    // Op names are the CUDA names without the leading underscores.
    CHECK(info.name == "__" + std::string(to_string(op)));
  }
}

TEST_CASE("the CUDA names the simulator provides are all there") {
  for (const char* name : {"__shfl_sync",
                           "__shfl_up_sync",
                           "__shfl_down_sync",
                           "__shfl_xor_sync",
                           "__ballot_sync",
                           "__any_sync",
                           "__all_sync",
                           "__uni_sync",
                           "__activemask",
                           "__match_any_sync",
                           "__match_all_sync",
                           "__reduce_add_sync",
                           "__reduce_min_sync",
                           "__reduce_max_sync",
                           "__reduce_and_sync",
                           "__reduce_or_sync",
                           "__reduce_xor_sync",
                           "__syncwarp",
                           "__syncthreads",
                           "__syncthreads_count",
                           "__syncthreads_and",
                           "__syncthreads_or",
                           "__barrier_sync",
                           "__popc",
                           "__popcll",
                           "__ffs",
                           "__ffsll",
                           "__clz",
                           "__clzll",
                           "__brev",
                           "__brevll",
                           "__fns"}) {
    CAPTURE(name);
    const IntrinsicInfo* info = find_intrinsic(name);
    REQUIRE(info != nullptr);
    CHECK(info->name == name);
  }
  CHECK(find_intrinsic("__shfl") == nullptr);
  CHECK(find_intrinsic("shfl_sync") == nullptr);
  CHECK(find_intrinsic("__shfl_sync")->op == Op::shfl_idx);
  CHECK(find_intrinsic("__fns")->family == IntrinsicFamily::bit);
}
