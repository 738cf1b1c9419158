// nvcuda::wmma as declarations that stop the launch where called: warp matrix
// multiply-accumulate runs on the tensor cores, whose per-lane fragment layout warpsim does not
// model (template parameters are named _W...: a user's `#define M 16` before the include must
// not reach them). A fragment's elements (x[], num_elements) exist so that element-wise code compiles; no
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
template <class _Wuse, int _Wm, int _Wn, int _Wk>
constexpr int fragment_elements() {
  if constexpr (__is_same(_Wuse, matrix_a)) return _Wm * _Wk / 32 > 0 ? _Wm * _Wk / 32 : 1;
  else if constexpr (__is_same(_Wuse, matrix_b)) return _Wk * _Wn / 32 > 0 ? _Wk * _Wn / 32 : 1;
  else return _Wm * _Wn / 32 > 0 ? _Wm * _Wn / 32 : 1;
}
template <class _Wt> struct storage { using type = _Wt; };
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

template <class _Wuse, int _Wm, int _Wn, int _Wk, class _Wt, class _Wlayout = void>
class fragment {
 public:
  using storage_element_type = typename detail::storage<_Wt>::type;
  using element_type = storage_element_type;
  static constexpr int num_elements = detail::fragment_elements<_Wuse, _Wm, _Wn, _Wk>();
  storage_element_type x[num_elements];
};

template <class _Wuse, int _Wm, int _Wn, int _Wk, class _Wt, class _Wlayout, class _Wv>
void fill_fragment(fragment<_Wuse, _Wm, _Wn, _Wk, _Wt, _Wlayout>&, const _Wv&,
                   ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::fill_fragment", site);
}

template <class _Wuse, int _Wm, int _Wn, int _Wk, class _Wt, class _Wlayout, class _Wp>
void load_matrix_sync(fragment<_Wuse, _Wm, _Wn, _Wk, _Wt, _Wlayout>&, const _Wp*, unsigned,
                      ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::load_matrix_sync", site);
}

template <class _Wuse, int _Wm, int _Wn, int _Wk, class _Wt, class _Wlayout, class _Wp>
void load_matrix_sync(fragment<_Wuse, _Wm, _Wn, _Wk, _Wt, _Wlayout>&, const _Wp*, unsigned, layout_t,
                      ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::load_matrix_sync", site);
}

template <int _Wm, int _Wn, int _Wk, class _Wt, class _Wp>
void store_matrix_sync(_Wp*, const fragment<accumulator, _Wm, _Wn, _Wk, _Wt, void>&, unsigned, layout_t,
                       ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::store_matrix_sync", site);
}

template <int _Wm, int _Wn, int _Wk, class _Wtd, class _Wta, class _Wla, class _Wtb, class _Wlb, class _Wtc>
void mma_sync(fragment<accumulator, _Wm, _Wn, _Wk, _Wtd, void>&, const fragment<matrix_a, _Wm, _Wn, _Wk, _Wta, _Wla>&,
              const fragment<matrix_b, _Wm, _Wn, _Wk, _Wtb, _Wlb>&,
              const fragment<accumulator, _Wm, _Wn, _Wk, _Wtc, void>&, bool = false,
              ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  detail::not_simulated("wmma::mma_sync", site);
}

template <class _Wd, class _Wa, class _Wb, class _Wc>
void bmma_sync(_Wd&, const _Wa&, const _Wb&, const _Wc&,
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
