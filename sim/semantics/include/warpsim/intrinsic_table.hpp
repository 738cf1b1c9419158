// Every CUDA intrinsic the simulator provides, and every fact about one, in one table: its CUDA
// name, the step it records (Op), its family, CUDA's parameter list and overload types, what it
// returns, the oldest architecture that has it, whether GPU test vectors cover it, and a one-line
// contract. Everything else reads these rows: evaluate() dispatches on the family, the trace views
// ask for result kinds and argument names, the vector format and recorder for coverage and types,
// and the GPU side generates its device-side wrappers and vector kernels from the parameters
// (warpsim/intrinsic_signature.hpp spells them as C++).
//
// Adding an intrinsic (README, "Adding an intrinsic"): its Op and its row here, its semantics in
// its family's file (sim/semantics/<family>.cpp), its overloads in the CUDA shim
// (sim/shim/warpsim/warp_intrinsics.hpp). A missing row stops the build (static_assert below);
// tests/semantics/intrinsic_places_test.cpp fails, naming the intrinsic, when one of the other two
// is missing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "warpsim/value_type.hpp"

namespace warpsim {

// The step a warp-level call records. Row i of kIntrinsics describes Op i.
enum class Op : std::uint8_t {
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  uni,
  match_any,
  match_all,
  reduce_add,
  reduce_min,
  reduce_max,
  reduce_and,
  reduce_or,
  reduce_xor,
  activemask,
  syncwarp,
  // Block-level barriers: traced as steps, evaluated by the runtime (they span warps).
  syncthreads,
  syncthreads_count,
  syncthreads_and,
  syncthreads_or,
  barrier_sync,  // a named barrier: __barrier_sync(id) with id != 0, __barrier_sync_count(id, n)
};
inline constexpr int kOpCount = static_cast<int>(Op::barrier_sync) + 1;

enum class IntrinsicFamily : std::uint8_t {
  shuffle,        // __shfl*_sync
  vote,           // __ballot/__any/__all/__uni_sync
  match,          // __match_any/_all_sync
  reduce,         // __reduce_*_sync
  activemask,     // __activemask
  warp_barrier,   // __syncwarp
  block_barrier,  // __syncthreads*, __barrier_sync
  bit,            // __popc, __ffs, __clz, __brev, __fns: plain per-lane functions (bit_ops.hpp)
};
std::string_view to_string(IntrinsicFamily family);

// The member-mask parameter that comes first: none, required, or defaulting to all 32 lanes.
enum class MaskParameter : std::uint8_t { none, required, optional };

// What a lane passes in: nothing, a value of one of the overload types, or an int predicate.
enum class OperandKind : std::uint8_t { none, value, predicate };

// What a call returns: a value of the operand's type (shuffles, reductions), a lane mask (ballot,
// match, __activemask), a predicate 0/1 (any, all, uni, __syncthreads_and/or), a count
// (__syncthreads_count), or nothing (__syncwarp, __syncthreads).
enum class ResultKind : std::uint8_t { value, lane_mask, predicate, count, none };

// Which GPU test vectors cover an op (../shared/spec/vectors.md); a vector file spells the op as
// to_string(op).
enum class VectorCoverage : std::uint8_t {
  none,      // no vector file holds it
  readable,  // `vectors check` checks it; the format's list and the recorder leave it out
  recorded,  // listed by the format and recorded on GPUs
};

// One operand type CUDA declares an overload for: its C++ spelling and the ValueType a call with it
// records (the shim's ValueBits agrees; and/or/xor reductions record their unsigned word as none).
struct OperandType {
  std::string_view cuda_name;
  ValueType type = ValueType::none;
};

// A constant array of rows or operand types, as std::span would give it (public headers stay C++17:
// kernel files compile against them).
template <class T>
struct ConstArray {
  const T* first = nullptr;
  std::size_t count = 0;
  constexpr ConstArray() = default;
  constexpr ConstArray(const T* items, std::size_t n) : first(items), count(n) {}
  template <std::size_t N>
  constexpr ConstArray(const std::array<T, N>& items) : first(items.data()), count(N) {}
  constexpr const T* begin() const { return first; }
  constexpr const T* end() const { return first + count; }
  constexpr std::size_t size() const { return count; }
  constexpr bool empty() const { return count == 0; }
  constexpr const T& operator[](std::size_t i) const { return first[i]; }
};

// Every operand type CUDA's shuffles take. The first spelling of each ValueType is the one
// generated code uses for it; `long` and `unsigned long` are 64-bit (LP64, every Linux CUDA
// target). Matches take the first eight (no halves).
inline constexpr std::array<OperandType, 12> kShuffleOperandTypes{{
    {"int", ValueType::i32},
    {"unsigned int", ValueType::u32},
    {"long long", ValueType::i64},
    {"unsigned long long", ValueType::u64},
    {"float", ValueType::f32},
    {"double", ValueType::f64},
    {"long", ValueType::i64},
    {"unsigned long", ValueType::u64},
    {"__half", ValueType::f16},
    {"__half2", ValueType::f16x2},
    {"__nv_bfloat16", ValueType::bf16},
    {"__nv_bfloat162", ValueType::bf16x2},
}};
inline constexpr ConstArray<OperandType> kMatchOperandTypes{kShuffleOperandTypes.data(), 8};
inline constexpr std::array<OperandType, 2> kReduceArithmeticTypes{{
    {"unsigned int", ValueType::u32},
    {"int", ValueType::i32},
}};
inline constexpr std::array<OperandType, 1> kReduceBitwiseTypes{
    {{"unsigned int", ValueType::none}}};
inline constexpr std::array<OperandType, 1> kPredicateTypes{{{"int", ValueType::none}}};

// The oldest architecture an intrinsic can need (the *_sync intrinsics exist from sm_30 on); an
// intrinsic that needs a newer one says so in its row (match.sync 70, redux.sync 80).
inline constexpr int kOldestSm = 30;

// A shuffle's third parameter: CUDA's name and type for it.
struct Argument {
  std::string_view name;  // "srcLane", "delta", "laneMask"; empty: no such parameter
  std::string_view cuda_type = "int";
};

struct IntrinsicInfo {
  std::string_view name;   // CUDA spelling, e.g. "__shfl_xor_sync"
  std::optional<Op> op{};  // the step a call records; none for bit helpers (not traced)
  IntrinsicFamily family{};
  // CUDA's parameters, in this order: mask, operand, argument, width, pred.
  MaskParameter mask = MaskParameter::none;
  OperandKind operand = OperandKind::none;
  ConstArray<OperandType> operand_types{};  // one overload each; empty when no operand
  Argument argument{};
  bool width = false;     // a trailing `int width = warpSize` (shuffles)
  bool pred_out = false;  // an `int* pred` the call writes (match_all)
  ResultKind result = ResultKind::none;
  int min_sm = kOldestSm;  // oldest architecture with the instruction (major * 10 + minor)
  VectorCoverage vectors = VectorCoverage::none;
  std::string_view contract{};  // what lane i receives, in one line
};

namespace intrinsic_rows {

using F = IntrinsicFamily;
using M = MaskParameter;
using K = OperandKind;
using R = ResultKind;
using V = VectorCoverage;

// One function per family states what its intrinsics share; each row adds its own facts.
constexpr IntrinsicInfo traced(std::string_view name, Op op, IntrinsicFamily family,
                               std::string_view contract) {
  IntrinsicInfo r{name, op, family};
  r.contract = contract;
  return r;
}
constexpr IntrinsicInfo shuffle(std::string_view name, Op op, Argument argument,
                                std::string_view contract) {
  IntrinsicInfo r = traced(name, op, F::shuffle, contract);
  r.mask = M::required;
  r.operand = K::value;
  r.operand_types = kShuffleOperandTypes;
  r.argument = argument;
  r.width = true;
  r.result = R::value;
  r.vectors = V::recorded;
  return r;
}
constexpr IntrinsicInfo vote(std::string_view name, Op op, ResultKind result,
                             VectorCoverage vectors, std::string_view contract) {
  IntrinsicInfo r = traced(name, op, F::vote, contract);
  r.mask = M::required;
  r.operand = K::predicate;
  r.operand_types = kPredicateTypes;
  r.result = result;
  r.vectors = vectors;
  return r;
}
constexpr IntrinsicInfo match(std::string_view name, Op op, bool pred_out,
                              std::string_view contract) {
  IntrinsicInfo r = traced(name, op, F::match, contract);
  r.mask = M::required;
  r.operand = K::value;
  r.operand_types = kMatchOperandTypes;
  r.pred_out = pred_out;
  r.result = R::lane_mask;
  r.min_sm = 70;
  r.vectors = V::recorded;
  return r;
}
constexpr IntrinsicInfo reduce(std::string_view name, Op op, ConstArray<OperandType> types,
                               std::string_view contract) {
  IntrinsicInfo r = traced(name, op, F::reduce, contract);
  r.mask = M::required;
  r.operand = K::value;
  r.operand_types = types;
  r.result = R::value;
  r.min_sm = 80;
  r.vectors = V::recorded;
  return r;
}
constexpr IntrinsicInfo activemask(std::string_view name, Op op, std::string_view contract) {
  IntrinsicInfo r = traced(name, op, F::activemask, contract);
  r.result = R::lane_mask;
  r.vectors = V::recorded;
  return r;
}
constexpr IntrinsicInfo warp_barrier(std::string_view name, Op op, std::string_view contract) {
  IntrinsicInfo r = traced(name, op, F::warp_barrier, contract);
  r.mask = M::optional;
  return r;
}
constexpr IntrinsicInfo block_barrier(std::string_view name, Op op, ResultKind result,
                                      std::string_view contract) {
  IntrinsicInfo r = traced(name, op, F::block_barrier, contract);
  if (result != R::none) {  // the _count/_and/_or forms take an int predicate
    r.operand = K::predicate;
    r.operand_types = kPredicateTypes;
  }
  r.result = result;
  return r;
}
// A named barrier (bar.sync a{, b}): its id is the argument; the thread count of
// __barrier_sync_count travels as the width (0: the whole block).
constexpr IntrinsicInfo named_barrier(std::string_view name, Op op, std::string_view contract) {
  IntrinsicInfo r = block_barrier(name, op, R::none, contract);
  r.argument = {"id", "unsigned int"};
  return r;
}
constexpr IntrinsicInfo bit(std::string_view name, std::string_view contract) {
  IntrinsicInfo r{name, std::nullopt, F::bit};
  r.contract = contract;
  return r;
}

// clang-format off
inline constexpr std::array kIntrinsics{
    shuffle("__shfl_sync", Op::shfl_idx, {"srcLane", "int"},
            "lane i gets var of lane base + (srcLane mod width) of its width-segment"),
    shuffle("__shfl_up_sync", Op::shfl_up, {"delta", "unsigned int"},
            "lane i gets var of lane i - (delta & 31), or its own if that leaves its segment"),
    shuffle("__shfl_down_sync", Op::shfl_down, {"delta", "unsigned int"},
            "lane i gets var of lane i + (delta & 31), or its own if that leaves its segment"),
    shuffle("__shfl_xor_sync", Op::shfl_xor, {"laneMask", "int"},
            "lane i gets var of lane i ^ (laneMask & 31), or its own if above its segment"),
    vote("__ballot_sync", Op::ballot, R::lane_mask, V::recorded,
         "every caller gets the mask of callers whose pred is non-zero"),
    vote("__any_sync", Op::any, R::predicate, V::recorded,
         "every caller gets 1 if some caller's pred is non-zero, else 0"),
    vote("__all_sync", Op::all, R::predicate, V::recorded,
         "every caller gets 1 if every caller's pred is non-zero, else 0"),
    vote("__uni_sync", Op::uni, R::predicate, V::readable,
         "every caller gets 1 if all callers' preds agree (zero or not), else 0"),
    match("__match_any_sync", Op::match_any, false,
          "lane i gets the mask of callers whose value has the same bits as its own"),
    match("__match_all_sync", Op::match_all, true,
          "every caller gets the callers' mask and *pred = 1 if all bits agree, else 0 and 0"),
    reduce("__reduce_add_sync", Op::reduce_add, kReduceArithmeticTypes,
           "every caller gets the callers' sum, modulo 2^32"),
    reduce("__reduce_min_sync", Op::reduce_min, kReduceArithmeticTypes,
           "every caller gets the callers' minimum (signed for int)"),
    reduce("__reduce_max_sync", Op::reduce_max, kReduceArithmeticTypes,
           "every caller gets the callers' maximum (signed for int)"),
    reduce("__reduce_and_sync", Op::reduce_and, kReduceBitwiseTypes,
           "every caller gets the bitwise AND of the callers' values"),
    reduce("__reduce_or_sync", Op::reduce_or, kReduceBitwiseTypes,
           "every caller gets the bitwise OR of the callers' values"),
    reduce("__reduce_xor_sync", Op::reduce_xor, kReduceBitwiseTypes,
           "every caller gets the bitwise XOR of the callers' values"),
    activemask("__activemask", Op::activemask,
               "every caller gets the mask of lanes executing this call with it (no promise, no sync)"),
    warp_barrier("__syncwarp", Op::syncwarp,
                 "lane i waits for every non-exited lane of mask; orders memory among them"),
    block_barrier("__syncthreads", Op::syncthreads, R::none,
                  "thread waits for every non-exited thread of the block; orders block memory"),
    block_barrier("__syncthreads_count", Op::syncthreads_count, R::count,
                  "as __syncthreads; every thread gets the number of threads whose pred is non-zero"),
    block_barrier("__syncthreads_and", Op::syncthreads_and, R::predicate,
                  "as __syncthreads; every thread gets 1 if every thread's pred is non-zero"),
    block_barrier("__syncthreads_or", Op::syncthreads_or, R::predicate,
                  "as __syncthreads; every thread gets 1 if some thread's pred is non-zero"),
    named_barrier("__barrier_sync", Op::barrier_sync,
                  "thread waits for its warp and for count threads (whole warps; default all) at "
                  "barrier id"),
    bit("__popc", "number of set bits of a 32-bit value"),
    bit("__popcll", "number of set bits of a 64-bit value"),
    bit("__ffs", "1 + position of the lowest set bit of a 32-bit value, 0 if none"),
    bit("__ffsll", "1 + position of the lowest set bit of a 64-bit value, 0 if none"),
    bit("__clz", "number of leading zero bits of a 32-bit value (32 for 0)"),
    bit("__clzll", "number of leading zero bits of a 64-bit value (64 for 0)"),
    bit("__brev", "the 32 bits in reverse order"),
    bit("__brevll", "the 64 bits in reverse order"),
    bit("__fns", "position of the |offset|-th set bit of mask from base (up if > 0, down if < 0), else ~0"),
};
// clang-format on

// Row i describes Op i (so intrinsic_for is one index), and every Op has its row.
constexpr bool rows_follow_ops() {
  for (int i = 0; i < kOpCount; ++i)
    if (kIntrinsics[static_cast<std::size_t>(i)].op != static_cast<Op>(i)) return false;
  for (std::size_t row = kOpCount; row < kIntrinsics.size(); ++row)
    if (kIntrinsics[row].op) return false;
  return true;
}
static_assert(rows_follow_ops(), "kIntrinsics: row i must describe Op i; bit helpers come last");
static_assert(kOpCount <= 32, "op sets are 32-bit masks");

}  // namespace intrinsic_rows

// The whole table: one row per Op, in Op order, then the untraced bit helpers.
constexpr ConstArray<IntrinsicInfo> intrinsic_table() { return intrinsic_rows::kIntrinsics; }

// The row of the intrinsic that records `op` (every Op has exactly one).
constexpr const IntrinsicInfo& intrinsic_for(Op op) {
  return intrinsic_rows::kIntrinsics[static_cast<std::size_t>(op)];
}

// The row named `name` (CUDA spelling), or nullptr.
const IntrinsicInfo* find_intrinsic(std::string_view name);

// Names as the vector format and traces spell them: the CUDA name without its leading "__"
// ("shfl_sync", "shfl_up_sync", ..., "activemask").
constexpr std::string_view to_string(Op op) { return intrinsic_for(op).name.substr(2); }
std::optional<Op> op_from_string(std::string_view name);

// The ops whose row satisfies `pred`, one bit per Op. The per-step predicates below test one bit
// of such a set (a shift and a test, about what comparing the enum costs).
template <class P>
constexpr std::uint32_t ops_where(P pred) {
  std::uint32_t set = 0;
  for (int i = 0; i < kOpCount; ++i)
    if (pred(intrinsic_for(static_cast<Op>(i)))) set |= std::uint32_t{1} << i;
  return set;
}
constexpr bool op_in(std::uint32_t set, Op op) { return (set >> static_cast<unsigned>(op)) & 1u; }

inline constexpr std::uint32_t kShuffleOps =
    ops_where([](const IntrinsicInfo& r) { return r.family == IntrinsicFamily::shuffle; });
inline constexpr std::uint32_t kBlockBarrierOps =
    ops_where([](const IntrinsicInfo& r) { return r.family == IntrinsicFamily::block_barrier; });

// Ops whose steps carry an argument (and width): shuffles, and named barriers' id and count.
inline constexpr std::uint32_t kArgumentOps =
    ops_where([](const IntrinsicInfo& r) { return !r.argument.name.empty(); });

constexpr bool is_shuffle(Op op) { return op_in(kShuffleOps, op); }
constexpr bool has_argument(Op op) { return op_in(kArgumentOps, op); }
constexpr bool is_block_barrier(Op op) { return op_in(kBlockBarrierOps, op); }
constexpr IntrinsicFamily family_of(Op op) { return intrinsic_for(op).family; }
constexpr ResultKind result_kind(Op op) { return intrinsic_for(op).result; }
constexpr bool result_is_mask(Op op) { return result_kind(op) == ResultKind::lane_mask; }

// Whether some overload of `op` records its operand as type `t` (none included).
constexpr bool records_type(Op op, ValueType t) {
  for (const OperandType& o : intrinsic_for(op).operand_types)
    if (o.type == t) return true;
  return false;
}

// Whether CUDA has an overload of `op` for operands of type `t`: a type some overload records.
// `none` stands for the 32-bit word of any call (a predicate, unsigned bits, or nothing), and an
// `unsigned int` overload may also be typed u32 where it records `none` (and/or/xor reductions).
constexpr bool accepts_type(Op op, ValueType t) {
  if (t == ValueType::none || records_type(op, t)) return true;
  for (const OperandType& o : intrinsic_for(op).operand_types)
    if (t == ValueType::u32 && o.cuda_name == "unsigned int") return true;
  return false;
}

}  // namespace warpsim
