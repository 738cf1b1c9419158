// nvcuda::wmma as declarations that stop the launch where called: warp matrix
// multiply-accumulate runs on the tensor cores, whose per-lane fragment layout warpsim does not
// model. A fragment's elements (x[], num_elements) exist so that element-wise code compiles; no
// value can reach memory without load/store/mma, each of which stops first.
#pragma once

#include <cstddef>

#include "warpsim/launch_stop.hpp"
#include "warpsim/device_abi.hpp"

namespace nvcuda::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};
}  // namespace precision
namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
}  // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}  // namespace experimental

namespace detail {
template <class Use, int M, int N, int K>
constexpr int fragment_elements() {
  if constexpr (__is_same(Use, matrix_a)) return M * K / 32 > 0 ? M * K / 32 : 1;
  else if constexpr (__is_same(Use, matrix_b)) return K * N / 32 > 0 ? K * N / 32 : 1;
  else return M * N / 32 > 0 ? M * N / 32 : 1;
}
template <class T> struct storage { using type = T; };
template <> struct storage<precision::tf32> { using type = float; };
template <> struct storage<experimental::precision::u4> { using type = unsigned; };
template <> struct storage<experimental::precision::s4> { using type = int; };
template <> struct storage<experimental::precision::b1> { using type = unsigned; };

[[noreturn]] inline void not_simulated(const char* function, ::warpsim::device::CallSite site) {
  ::warpsim::shim::stop_launch(
      "%s:%u: %s is not simulated: warp matrix multiply-accumulate (nvcuda::wmma) runs on the "
      "tensor cores, whose fragment layout warpsim does not model",
      site.file, site.line, function);
}
}  // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
 public:
  using storage_element_type = typename detail::storage<T>::type;
  using element_type = storage_element_type;
  static constexpr int num_elements = detail::fragment_elements<Use, M, N, K>();
  storage_element_type x[num_elements];
};

template <class Use, int M, int N, int K, class T, class Layout, class V>
void fill_fragment(fragment<Use, M, N, K, T, Layout>&, const V&,
                   ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::fill_fragment", site);
}

template <class Use, int M, int N, int K, class T, class Layout, class P>
void load_matrix_sync(fragment<Use, M, N, K, T, Layout>&, const P*, unsigned,
                      ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::load_matrix_sync", site);
}

template <class Use, int M, int N, int K, class T, class Layout, class P>
void load_matrix_sync(fragment<Use, M, N, K, T, Layout>&, const P*, unsigned, layout_t,
                      ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::load_matrix_sync", site);
}

template <int M, int N, int K, class T, class P>
void store_matrix_sync(P*, const fragment<accumulator, M, N, K, T, void>&, unsigned, layout_t,
                       ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::store_matrix_sync", site);
}

template <int M, int N, int K, class TD, class TA, class LA, class TB, class LB, class TC>
void mma_sync(fragment<accumulator, M, N, K, TD, void>&, const fragment<matrix_a, M, N, K, TA, LA>&,
              const fragment<matrix_b, M, N, K, TB, LB>&,
              const fragment<accumulator, M, N, K, TC, void>&, bool = false,
              ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::mma_sync", site);
}

template <class D, class A, class B, class C>
void bmma_sync(D&, const A&, const B&, const C&,
               experimental::bmmaBitOp = experimental::bmmaBitOpXOR,
               experimental::bmmaAccumulateOp = experimental::bmmaAccumulateOpPOPC,
               ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::bmma_sync", site);
}

// The rounding to TensorFloat-32 is the tensor cores' too: stopped rather than guessed.
inline float __float_to_tf32(float,
                             ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::__float_to_tf32", site);
}

}  // namespace nvcuda::wmma
