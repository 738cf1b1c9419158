// How each CUDA operand type travels through a warp-level call: its ValueType and raw bits.
#pragma once

#include <cstdint>
#include <cstring>

#include "warpsim/half_types.hpp"
#include "warpsim/semantics.hpp"

namespace warpsim::shim {

template <class T>
struct ValueBits;

template <class T, ValueType V>
struct ValueBitsOf {
  static constexpr ValueType type = V;
  static std::uint64_t to(T v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    return bits;
  }
  static T from(std::uint64_t bits) {
    T v;
    std::memcpy(static_cast<void*>(&v), &bits, sizeof v);
    return v;
  }
};

template <> struct ValueBits<int> : ValueBitsOf<int, ValueType::i32> {};
template <> struct ValueBits<unsigned int> : ValueBitsOf<unsigned int, ValueType::u32> {};
template <> struct ValueBits<float> : ValueBitsOf<float, ValueType::f32> {};
template <> struct ValueBits<long long> : ValueBitsOf<long long, ValueType::i64> {};
template <> struct ValueBits<unsigned long long> : ValueBitsOf<unsigned long long, ValueType::u64> {};
template <> struct ValueBits<double> : ValueBitsOf<double, ValueType::f64> {};
// LP64: long is 64-bit, as on every Linux CUDA target.
template <> struct ValueBits<long> : ValueBitsOf<long, ValueType::i64> {};
template <> struct ValueBits<unsigned long> : ValueBitsOf<unsigned long, ValueType::u64> {};
template <> struct ValueBits<__half> : ValueBitsOf<__half, ValueType::f16> {};
template <> struct ValueBits<__half2> : ValueBitsOf<__half2, ValueType::f16x2> {};
template <> struct ValueBits<__nv_bfloat16> : ValueBitsOf<__nv_bfloat16, ValueType::bf16> {};
template <> struct ValueBits<__nv_bfloat162> : ValueBitsOf<__nv_bfloat162, ValueType::bf16x2> {};

}  // namespace warpsim::shim
