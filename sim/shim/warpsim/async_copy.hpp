// __pipeline_memcpy_async and its kin (sm_80's cp.async). On a GPU the copy completes at some
// point before the issuing thread's __pipeline_wait_prior returns; here the issuing lane copies
// at once, which is one of the orders a GPU may show: a kernel that waits (and then synchronises
// before other threads read) gets the GPU's values. The copy is made by the lane's own loads and
// stores, so the memory checks see it as the lane's accesses.
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpsim/device_abi.hpp"
#include "warpsim/launch_stop.hpp"

namespace warpsim::shim {
inline void async_copy(void* dst, const void* src, std::size_t size, std::size_t zfill,
                       ::warpsim::device::CallSite site) {
  if (size != 4 && size != 8 && size != 16) {
    stop_launch("%s:%u: __pipeline_memcpy_async copies 4, 8 or 16 bytes, not %zu", site.file,
                site.line, size);
  }
  if (zfill > size) {
    stop_launch("%s:%u: __pipeline_memcpy_async: zfill %zu is more than the %zu bytes copied",
                site.file, site.line, zfill, size);
  }
  if (reinterpret_cast<std::uintptr_t>(dst) % size != 0 ||
      reinterpret_cast<std::uintptr_t>(src) % size != 0) {
    stop_launch("%s:%u: misaligned address: __pipeline_memcpy_async of %zu bytes needs both "
                "addresses aligned to %zu (dst %p, src %p)",
                site.file, site.line, size, size, dst, src);
  }
  auto* to = static_cast<unsigned char*>(dst);
  const auto* from = static_cast<const unsigned char*>(src);
  for (std::size_t i = 0; i < size - zfill; ++i) to[i] = from[i];
  for (std::size_t i = size - zfill; i < size; ++i) to[i] = 0;
}
}  // namespace warpsim::shim

inline void __pipeline_memcpy_async(
    void* __restrict__ dst_shared, const void* __restrict__ src_global, std::size_t size_and_align,
    std::size_t zfill = 0, ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  ::warpsim::shim::async_copy(dst_shared, src_global, size_and_align, zfill, site);
}
// Every copy is complete when issued: committing and waiting have nothing left to do.
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(std::size_t) {}

namespace nvcuda::experimental {
class pipeline {
 public:
  unsigned int commit() { return committed_++; }
  void commit_and_wait() { commit(); }
  void wait(unsigned int) {}
  template <unsigned int _Wn>
  void wait_prior() {}

 private:
  unsigned int committed_ = 0;
};

template <class _Wt>
void memcpy_async(_Wt& dst, const _Wt& src, pipeline&,
                  ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  static_assert(sizeof(_Wt) == 4 || sizeof(_Wt) == 8 || sizeof(_Wt) == 16,
                "memcpy_async copies an object of 4, 8 or 16 bytes");
  ::warpsim::shim::async_copy(&dst, &src, sizeof(_Wt), 0, site);
}

template <class _Wt, std::size_t _Wn>
void memcpy_async(_Wt (&dst)[_Wn], const _Wt (&src)[_Wn], pipeline&,
                  ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  static_assert(sizeof(_Wt) * _Wn == 4 || sizeof(_Wt) * _Wn == 8 || sizeof(_Wt) * _Wn == 16,
                "memcpy_async copies an array of 4, 8 or 16 bytes");
  ::warpsim::shim::async_copy(dst, src, sizeof(_Wt) * _Wn, 0, site);
}
}  // namespace nvcuda::experimental
