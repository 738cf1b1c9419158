// Test-vector cases: the single warp-level calls the recorder asks a GPU to make, generated from
// a seed. Pure C++ (no CUDA), so the generator is tested on machines without a GPU.
//
// A case is one warp: lanes outside `lanes` have exited, every lane in `lanes` calls `op` once
// with member mask `mask` (a superset of `lanes`: extra bits name exited lanes only, which is
// legal CUDA). The recorder fills `expect*` from the GPU; see ../shared/spec/vectors.md.
//
//   GeneratorOptions options;  // seed 777, 24000 cases, sm_90
//   std::vector<VectorCase> cases = generate_cases(options);
//   // cases[k].op cycles through every (op, type) pair; same options -> same cases.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "warpsim/semantics.hpp"

namespace warpsim::gpu {

// The operations the recorder records (the intrinsic table's rows with VectorCoverage::recorded:
// the 16 of spec/vectors.md), in the order it lists them.
std::span<const Op> vector_ops();
// The value types `op` takes in the vector format: the format's types some overload records (all
// six for shuffles and matches, i32/u32 for add/min/max reductions), else {ValueType::none} (votes,
// and/or/xor reductions, activemask).
std::span<const ValueType> vector_types(Op op);
// Oldest architecture (major*10 + minor) with the instruction: the table's min_sm (match.sync 70,
// redux.sync 80).
int min_sm(Op op);

struct OpType {
  Op op{};
  ValueType type = ValueType::none;
  friend bool operator==(const OpType&, const OpType&) = default;
};
// Every (op, type) pair of the format that a device of architecture `sm` can run, in format order.
std::vector<OpType> vector_op_types(int sm = 90);

// Bits of the operand and of the result: 64 for 64-bit types (a shuffle's result has its
// operand's type), 32 otherwise (votes, masks, reductions, activemask).
int value_bits(ValueType type);
int result_bits(Op op, ValueType type);

struct VectorCase {
  Op op = Op::shfl_idx;
  ValueType type = ValueType::none;
  LaneMask mask = 0;     // member mask: `lanes` plus, possibly, exited lanes
  LaneMask lanes = 0;    // the calling lanes
  std::int32_t width = kWarpSize;                // shuffles only
  std::array<std::uint64_t, kWarpSize> value{};  // raw operand bits (predicate for votes); 0 off `lanes`
  std::array<std::int32_t, kWarpSize> arg{};     // shuffles: srcLane / delta / laneMask; 0 off `lanes`

  // Filled by the recorder from what the GPU returned.
  std::array<std::uint64_t, kWarpSize> expect{};  // result bits
  LaneMask expect_defined = 0;  // lanes whose `expect` is written; the others are null
  LaneMask expect_pred = 0;     // match_all_sync: each lane's *pred
};

// The lane whose value lane `lane` receives from a shuffle (op is one of the four shuffles), by
// the PTX formula of spec section 1.2: only the low 5 bits of `arg` count, `width` becomes the
// segment mask (32 - width) & 31, and an out-of-range source means the lane keeps its own value.
// Example: shfl_idx, width 12, arg lane+1: lane 7 reads lane 12, lane 3 reads lane 0.
// Written apart from the simulator's formula on purpose, so that the recorder's nulls cannot
// inherit a simulator bug; tests/gpu checks that the two agree.
int shuffle_source_lane(Op op, int lane, std::int32_t arg, std::int32_t width);

// Calling lanes whose result CUDA leaves undefined: in a legal call (mask ⊇ lanes) that is a
// shuffle whose source lane has exited. The recorder writes these results as null.
LaneMask undefined_result_lanes(const VectorCase& c);

// How many lanes call: 32, 9..31, 2..8, or 1.
enum class LanesKind : std::uint8_t { full, partial, sparse, single };
LanesKind lanes_kind(LaneMask lanes);

// Widths every shuffle (op, type) pair gets at least once: 1..32, then invalid ones.
std::span<const std::int32_t> swept_widths();

struct GeneratorOptions {
  std::uint64_t seed = 777;
  std::size_t cases = 24000;
  int sm = 90;  // ops the architecture lacks (see min_sm) are left out
};

// Case k exercises pair k % P of vector_op_types(sm) (P pairs), as that pair's n-th case with
// n = k / P. Per pair, the n-th case cycles through lanes kinds (n % 4), mask kinds ((n / 4) % 3),
// argument kinds (n % 5) and value kinds (n % 7), periods prime to each other so that every
// pairing occurs; shuffles sweep swept_widths() first, then draw widths. Random
// choices come from std::mt19937_64(seed) through our own bounded draws, so a seed gives the same
// cases with any standard library.
std::vector<VectorCase> generate_cases(const GeneratorOptions& options);

// The fewest cases for which every pair has had its whole width sweep and every kind above.
std::size_t min_cases_for_full_coverage(int sm = 90);

}  // namespace warpsim::gpu
