#include "vector_cases.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <climits>
#include <random>

#include "warpsim/vectors.hpp"

namespace warpsim::gpu {
namespace {

// Every op the recorder records, in table order (the order vectors.md lists them), and per op the
// value types its cases carry: the format's types it has an overload for, in the format's order, or
// {none} where a case has no type.
struct OpTypes {
  std::array<ValueType, kVectorValueTypes.size()> types{};
  std::size_t count = 0;
};
constexpr std::array<OpTypes, kOpCount> types_by_op() {
  std::array<OpTypes, kOpCount> all{};
  for (int i = 0; i < kOpCount; ++i) {
    OpTypes& t = all[static_cast<std::size_t>(i)];
    for (const ValueType type : kVectorValueTypes)
      if (records_type(static_cast<Op>(i), type)) t.types[t.count++] = type;
    if (t.count == 0) t.types[t.count++] = ValueType::none;
  }
  return all;
}
constexpr std::array kTypesByOp = types_by_op();

constexpr std::uint32_t kRecordedOpSet =
    ops_where([](const IntrinsicInfo& r) { return r.vectors == VectorCoverage::recorded; });
constexpr auto kRecordedOps = [] {
  std::array<Op, std::popcount(kRecordedOpSet)> ops{};
  std::size_t n = 0;
  for (int i = 0; i < kOpCount; ++i)
    if (op_in(kRecordedOpSet, static_cast<Op>(i))) ops[n++] = static_cast<Op>(i);
  return ops;
}();

constexpr std::array<std::int32_t, 38> kSweptWidths = {
    1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 0,  12, 33, 64, -1, 48,
};
constexpr std::array<std::int32_t, 8> kInvalidWidths = {0, 12, 33, 64, -1, 48, 96, -16};

constexpr int kLanesKinds = 4;  // LanesKind
constexpr int kMaskKinds = 3;   // exact, all 32 bits, lanes plus some exited lanes
constexpr int kArgKinds = 5;
// Value kinds 0..5 (see make_typed_values, make_vote_values), kind 0 twice: a cycle of 7, prime to
// the other cycles (4, 3, 5, 2) so that every value kind meets every lanes kind and argument kind.
constexpr std::array<int, 7> kValueKindCycle = {0, 1, 2, 3, 4, 5, 0};

bool takes_predicate(Op op) { return intrinsic_for(op).operand == OperandKind::predicate; }

// ---- random draws: only raw mt19937_64 output, so results do not depend on the std library ----

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t bits64() { return engine_(); }
  std::uint32_t bits32() { return static_cast<std::uint32_t>(engine_() >> 32); }
  // Uniform in [0, n), n > 0 (the modulo bias is far below anything a test could see).
  std::uint64_t below(std::uint64_t n) { return engine_() % n; }
  std::int64_t between(std::int64_t lo, std::int64_t hi) {  // inclusive
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  bool chance(std::uint64_t numerator, std::uint64_t denominator) { return below(denominator) < numerator; }
  template <class T, std::size_t N>
  T pick(const std::array<T, N>& items) { return items[below(N)]; }
  int lane() { return static_cast<int>(below(kWarpSize)); }

 private:
  std::mt19937_64 engine_;
};

// ---- special values: sign edges, NaN payloads, integer extremes ----

constexpr std::array<std::uint64_t, 14> kSpecial32 = {
    0x00000000, 0x00000001, 0x00000002, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
    0xfffffffe, 0x0000ffff, 0x00010000, 0x00000064, 0xaaaaaaaa, 0x55555555, 0x0000001f,
};
constexpr std::array<std::uint64_t, 17> kSpecialF32 = {
    0x00000000,  // +0
    0x80000000,  // -0
    0x3f800000,  // 1.0
    0xbf800000,  // -1.0
    0x7f800000,  // +inf
    0xff800000,  // -inf
    0x7fc00000,  // canonical qNaN
    0xffc00000,  // -qNaN
    0x7fc00001,  // qNaN, payload 1
    0x7fffffff,  // qNaN, all payload bits
    0x7f800001,  // sNaN, payload 1
    0xff800001,  // -sNaN
    0x00000001,  // smallest denormal
    0x80000001,  // negative denormal
    0x7f7fffff,  // FLT_MAX
    0x00800000,  // FLT_MIN
    0x42c80000,  // 100.0
};
constexpr std::array<std::uint64_t, 13> kSpecial64 = {
    0x0000000000000000, 0x0000000000000001, 0xffffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff,
    0x00000000ffffffff, 0xffffffff00000000, 0x0000000100000000, 0x0000000080000000, 0x8000000000000001,
    0x00000001ffffffff, 0x00000000fffffffe, 0x0000000000000064,
};
constexpr std::array<std::uint64_t, 16> kSpecialF64 = {
    0x0000000000000000,  // +0
    0x8000000000000000,  // -0
    0x3ff0000000000000,  // 1.0
    0x3ff0000000000001,  // 1.0 + ulp: differs from 1.0 in the low word only
    0xbff0000000000000,  // -1.0
    0x7ff0000000000000,  // +inf
    0xfff0000000000000,  // -inf
    0x7ff8000000000000,  // canonical qNaN
    0xfff8000000000000,  // -qNaN
    0x7ff8000000000001,  // qNaN, payload in the low word
    0x7ff8000100000000,  // qNaN, payload in the high word
    0x7ff0000000000001,  // sNaN
    0x0000000000000001,  // smallest denormal
    0x7fefffffffffffff,  // DBL_MAX
    0x0000000100000000,  // denormal with only a high-word bit
    0x4059000000000000,  // 100.0
};
constexpr std::array<std::uint64_t, 7> kNonzeroPredicates = {1, 2, 0xffffffff, 0x80000000, 0x00010000, 0x100, 7};

std::uint64_t special_value(Rng& rng, ValueType type) {
  switch (type) {
    case ValueType::f32: return rng.pick(kSpecialF32);
    case ValueType::i64:
    case ValueType::u64: return rng.pick(kSpecial64);
    case ValueType::f64: return rng.pick(kSpecialF64);
    default: return rng.pick(kSpecial32);
  }
}

std::uint64_t random_value(Rng& rng, ValueType type) {
  return value_bits(type) == 64 ? rng.bits64() : rng.bits32();
}

// A value that differs from `v` in one telling way: sign (+0/-0), NaN payload, low word only, ...
std::uint64_t near_miss(Rng& rng, ValueType type, std::uint64_t v) {
  switch (type) {
    case ValueType::f32: {
      constexpr std::array<std::uint64_t, 3> flips = {0x80000000, 0x00000001, 0x00400000};
      return v ^ rng.pick(flips);
    }
    case ValueType::f64: {
      constexpr std::array<std::uint64_t, 4> flips = {0x8000000000000000, 0x0000000000000001,
                                                      0x0000000100000000, 0x0008000000000000};
      return v ^ rng.pick(flips);
    }
    case ValueType::i64:
    case ValueType::u64: {
      constexpr std::array<std::uint64_t, 4> flips = {0x0000000000000001, 0x0000000100000000,
                                                      0x8000000000000000, 0x0000000080000000};
      return v ^ rng.pick(flips);
    }
    default: {
      constexpr std::array<std::uint64_t, 3> flips = {0x00000001, 0x80000000, 0xffffffff};
      return v ^ rng.pick(flips);
    }
  }
}

// ---- lanes and masks ----

LaneMask random_lanes_with_popcount(Rng& rng, int lo, int hi) {
  const int want = static_cast<int>(rng.between(lo, hi));
  LaneMask lanes = 0;
  while (std::popcount(lanes) < want) lanes |= lane_bit(rng.lane());
  return lanes;
}

LaneMask make_lanes(Rng& rng, LanesKind kind) {
  switch (kind) {
    case LanesKind::full: return kFullMask;
    case LanesKind::partial: {
      constexpr std::array<LaneMask, 8> patterns = {0x0000ffff, 0xffff0000, 0x0f0f0f0f, 0x55555555,
                                                    0xaaaaaaaa, 0x000fffff, 0x7fffffff, 0xfffffffe};
      switch (rng.below(4)) {
        case 0: return rng.pick(patterns);
        case 1: return kFullMask >> rng.between(1, 23);                // lanes 0..k-1 (k >= 9)
        case 2: return kFullMask << rng.between(1, 23);                // lanes k..31
        default: return random_lanes_with_popcount(rng, 9, 31);
      }
    }
    case LanesKind::sparse: {
      constexpr std::array<LaneMask, 6> patterns = {0x80000001, 0x11111111, 0x01010101,
                                                    0x80008000, 0x00000003, 0xc0000000};
      if (rng.chance(1, 3)) return rng.pick(patterns);
      return random_lanes_with_popcount(rng, 2, 8);
    }
    case LanesKind::single: {
      constexpr std::array<int, 4> edges = {0, 31, 16, 15};
      return lane_bit(rng.chance(1, 3) ? rng.pick(edges) : rng.lane());
    }
  }
  return kFullMask;
}

LaneMask make_mask(Rng& rng, LaneMask lanes, int mask_kind) {
  switch (mask_kind) {
    case 0: return lanes;                          // names exactly the callers
    case 1: return kFullMask;                      // the usual full mask: names every exited lane
    default: return lanes | (rng.bits32() & ~lanes);  // callers plus some exited lanes
  }
}

// ---- shuffle arguments ----

std::int32_t in_range_arg(Rng& rng, Op op) {
  constexpr std::array<std::int32_t, 6> steps = {1, 2, 4, 8, 16, 0};
  if (op != Op::shfl_idx && rng.chance(1, 2)) return rng.pick(steps);
  return static_cast<std::int32_t>(rng.below(kWarpSize));
}

std::int32_t negative_arg(Rng& rng) {
  constexpr std::array<std::int32_t, 11> picks = {-1, -2, -15, -16, -31, -32, -33, -64, -65, INT_MIN, INT_MIN + 1};
  if (rng.chance(1, 4)) return static_cast<std::int32_t>(-rng.between(1, 1'000'000));
  return rng.pick(picks);
}

std::int32_t large_arg(Rng& rng) {
  constexpr std::array<std::int32_t, 11> picks = {32, 33, 47, 48, 63, 64, 65, 100, 256, INT_MAX, INT_MAX - 31};
  if (rng.chance(1, 4)) return static_cast<std::int32_t>(rng.between(32, 1'000'000));
  return rng.pick(picks);
}

void make_args(Rng& rng, VectorCase& c, int arg_kind, bool negative) {
  auto for_each_lane = [&](auto&& f) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (has_lane(c.lanes, lane)) c.arg[static_cast<std::size_t>(lane)] = f(lane);
    }
  };
  switch (arg_kind) {
    case 0: {  // one in-range argument for every lane
      const std::int32_t a = in_range_arg(rng, c.op);
      for_each_lane([&](int) { return a; });
      break;
    }
    case 1: {  // one out-of-range argument: negative or >= 32
      const std::int32_t a = negative ? negative_arg(rng) : large_arg(rng);
      for_each_lane([&](int) { return a; });
      break;
    }
    case 2: {  // per lane, a formula of the lane index (the usual ways code computes it)
      const auto k = static_cast<std::int32_t>(rng.between(-40, 40));
      switch (rng.below(6)) {
        case 0: for_each_lane([&](int lane) { return lane + k; }); break;
        case 1: for_each_lane([&](int lane) { return lane ^ (k & 31); }); break;
        case 2: for_each_lane([&](int lane) { return k - lane; }); break;
        case 3: for_each_lane([&](int lane) { return 31 - lane; }); break;
        case 4: for_each_lane([&](int lane) { return lane & 7; }); break;
        default: for_each_lane([&](int lane) { return lane * k; }); break;
      }
      break;
    }
    case 3:  // per lane, small and often out of range
      for_each_lane([&](int) { return static_cast<std::int32_t>(rng.between(-40, 72)); });
      break;
    default:  // per lane, anything
      for_each_lane([&](int) {
        switch (rng.below(4)) {
          case 0: return in_range_arg(rng, c.op);
          case 1: return negative_arg(rng);
          case 2: return large_arg(rng);
          default: return static_cast<std::int32_t>(rng.bits32());
        }
      });
      break;
  }
}

std::int32_t random_width(Rng& rng) {
  constexpr std::array<std::int32_t, 7> powers = {1, 2, 4, 8, 16, 32, 32};
  switch (rng.below(10)) {
    case 0: return rng.pick(kInvalidWidths);
    case 1:
    case 2: return static_cast<std::int32_t>(rng.between(1, 32));
    default: return rng.pick(powers);
  }
}

// ---- values ----

// The n-th lane (from 0) set in `lanes`; precondition: n < popcount(lanes).
int nth_lane(LaneMask lanes, std::uint64_t n) {
  for (; n > 0; --n) lanes &= lanes - 1;
  return std::countr_zero(lanes);
}

void make_vote_values(Rng& rng, VectorCase& c, int value_kind) {
  const int callers = std::popcount(c.lanes);
  const int chosen = static_cast<int>(rng.below(static_cast<std::uint64_t>(callers)));  // the odd one out
  const auto cut = static_cast<int>(rng.between(0, 32));
  int rank = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(c.lanes, lane)) continue;
    std::uint64_t v = 0;
    switch (value_kind) {
      case 0: v = rng.chance(1, 2) ? rng.pick(kNonzeroPredicates) : 0; break;  // mixed
      case 1: v = rng.pick(kNonzeroPredicates); break;                           // all true
      case 2: v = 0; break;                                                      // all false
      case 3: v = rank == chosen ? rng.pick(kNonzeroPredicates) : 0; break;      // one true
      case 4: v = rank == chosen ? 0 : rng.pick(kNonzeroPredicates); break;      // one false
      default: v = lane < cut ? 1 : 0; break;                                    // lane < k
    }
    c.value[static_cast<std::size_t>(lane)] = v;
    ++rank;
  }
}

void make_typed_values(Rng& rng, VectorCase& c, ValueType type, int value_kind) {
  const bool wide = value_bits(type) == 64;
  std::array<std::uint64_t, 4> palette{};
  for (auto& p : palette) p = rng.chance(3, 5) ? special_value(rng, type) : random_value(rng, type);
  const auto palette_size = static_cast<std::size_t>(rng.between(1, 4));
  const std::uint64_t common = rng.chance(1, 2) ? special_value(rng, type) : random_value(rng, type);
  LaneMask odd_lanes = 0;  // 1 to 3 calling lanes
  for (auto k = rng.between(1, 3); k > 0; --k) odd_lanes |= lane_bit(nth_lane(c.lanes, rng.below(std::popcount(c.lanes))));
  const std::uint64_t high_word = rng.bits64() & 0xffffffff00000000u;
  const std::uint64_t derived_kind = rng.below(3);

  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(c.lanes, lane)) continue;
    const auto u = static_cast<std::uint64_t>(lane);
    std::uint64_t v = 0;
    switch (value_kind) {
      case 0:  // distinct: identifies each shuffle's source lane
        v = rng.chance(1, 8) ? special_value(rng, type) : random_value(rng, type);
        break;
      case 1: v = palette[rng.below(palette_size)]; break;  // few values: matches and ties
      case 2: v = special_value(rng, type); break;
      case 3: v = common; break;  // all equal
      case 4: v = has_lane(odd_lanes, lane) ? near_miss(rng, type, common) : common; break;
      default:  // derived from the lane, as tests and lessons usually write them
        if (derived_kind == 0) v = 100 + u;
        else if (derived_kind == 1) v = wide ? (high_word | (u & 3)) : (u >> 2);  // groups of lanes
        else v = type == ValueType::f32 ? (u & 1 ? 0x80000000u : 0u) : (~u & (wide ? ~0ull : 0xffffffffull));
        break;
    }
    c.value[static_cast<std::size_t>(lane)] = v;
  }
}

VectorCase make_case(Rng& rng, const OpType& pair, std::size_t n) {
  VectorCase c;
  c.op = pair.op;
  c.type = pair.type;
  c.lanes = make_lanes(rng, static_cast<LanesKind>(n % kLanesKinds));
  c.mask = make_mask(rng, c.lanes, static_cast<int>(n / kLanesKinds % kMaskKinds));
  if (is_shuffle(c.op)) {
    c.width = n < kSweptWidths.size() ? kSweptWidths[n] : random_width(rng);
    make_args(rng, c, static_cast<int>(n % kArgKinds), n / kArgKinds % 2 == 0);
  }
  const int value_kind = kValueKindCycle[n % kValueKindCycle.size()];
  if (takes_predicate(c.op)) {
    make_vote_values(rng, c, value_kind);
  } else if (intrinsic_for(c.op).operand == OperandKind::value) {
    make_typed_values(rng, c, c.type == ValueType::none ? ValueType::u32 : c.type, value_kind);
  }
  return c;
}

}  // namespace

std::span<const Op> vector_ops() { return kRecordedOps; }

std::span<const ValueType> vector_types(Op op) {
  const OpTypes& t = kTypesByOp[static_cast<std::size_t>(op)];
  return std::span(t.types).first(t.count);
}

int min_sm(Op op) { return intrinsic_for(op).min_sm; }

std::vector<OpType> vector_op_types(int sm) {
  std::vector<OpType> pairs;
  for (const Op op : kRecordedOps) {
    if (min_sm(op) > sm) continue;
    for (const ValueType type : vector_types(op)) pairs.push_back({op, type});
  }
  return pairs;
}

int value_bits(ValueType type) { return is_64bit(type) ? 64 : 32; }

int result_bits(Op op, ValueType type) {
  return result_kind(op) == ResultKind::value ? value_bits(type) : 32;
}

int shuffle_source_lane(Op op, int lane, std::int32_t arg, std::int32_t width) {
  assert(is_shuffle(op) && lane >= 0 && lane < kWarpSize);
  // c as the CUDA header builds it: ((32 - width) << 8) | clamp, clamp 0 for up and 0x1f otherwise.
  const std::uint32_t c = ((32u - static_cast<std::uint32_t>(width)) << 8) | (op == Op::shfl_up ? 0u : 0x1fu);
  const int b = static_cast<int>(static_cast<std::uint32_t>(arg) & 31u);
  const int clamp = static_cast<int>(c & 31u);
  const int seg = static_cast<int>((c >> 8) & 31u);
  const int min_lane = lane & seg;
  const int max_lane = (lane & seg) | (clamp & ~seg);
  int j = lane;
  bool in_range = true;
  switch (op) {
    case Op::shfl_idx: j = min_lane | (b & ~seg); in_range = j <= max_lane; break;
    case Op::shfl_up: j = lane - b; in_range = j >= max_lane; break;
    case Op::shfl_down: j = lane + b; in_range = j <= max_lane; break;
    default: j = lane ^ b; in_range = j <= max_lane; break;
  }
  return in_range ? j : lane;
}

LaneMask undefined_result_lanes(const VectorCase& c) {
  if (!is_shuffle(c.op)) return 0;
  LaneMask undefined = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(c.lanes, lane)) continue;
    const int source = shuffle_source_lane(c.op, lane, c.arg[static_cast<std::size_t>(lane)], c.width);
    if (!has_lane(c.lanes, source)) undefined |= lane_bit(lane);
  }
  return undefined;
}

LanesKind lanes_kind(LaneMask lanes) {
  const int count = std::popcount(lanes);
  if (count == kWarpSize) return LanesKind::full;
  if (count >= 9) return LanesKind::partial;
  if (count >= 2) return LanesKind::sparse;
  return LanesKind::single;
}

std::span<const std::int32_t> swept_widths() { return kSweptWidths; }

std::vector<VectorCase> generate_cases(const GeneratorOptions& options) {
  const std::vector<OpType> pairs = vector_op_types(options.sm);
  std::vector<VectorCase> cases;
  if (pairs.empty()) return cases;
  cases.reserve(options.cases);
  Rng rng(options.seed);
  for (std::size_t k = 0; k < options.cases; ++k) {
    cases.push_back(make_case(rng, pairs[k % pairs.size()], k / pairs.size()));
  }
  return cases;
}

std::size_t min_cases_for_full_coverage(int sm) {
  // Each pair's kinds repeat every 12 (lanes x mask), 10 (argument) and 7 (value) cases; the
  // width sweep is the longest cycle.
  constexpr std::size_t per_pair = std::max<std::size_t>(kSweptWidths.size(), kLanesKinds * kMaskKinds);
  return per_pair * vector_op_types(sm).size();
}

}  // namespace warpsim::gpu
