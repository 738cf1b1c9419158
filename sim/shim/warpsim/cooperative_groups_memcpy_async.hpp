// cg::memcpy_async / cg::wait / cg::wait_prior (`#include <cooperative_groups/memcpy_async.h>`).
// The group copies at the call, each member taking every size()-th byte from its rank on; wait()
// and wait_prior<N>() are the group's sync(), which is where CUDA makes the data visible to every
// member, so a kernel that reads the destination before waiting races there as on hardware (the
// simulator does not flag that read). A cuda::aligned_size_t (<cuda/barrier>) count converts to
// its byte count.
#pragma once

#include <cstddef>
#include <type_traits>

#include "warpsim/cooperative_groups.hpp"

namespace warpsim::shim::cg {

template <class GroupT>
void copy_bytes(const GroupT& group, void* dst, const void* src, std::size_t bytes) {
  auto* out = static_cast<unsigned char*>(dst);
  const auto* in = static_cast<const unsigned char*>(src);
  const auto step = static_cast<std::size_t>(group.size());
  for (auto i = static_cast<std::size_t>(group.thread_rank()); i < bytes; i += step) out[i] = in[i];
}

}  // namespace warpsim::shim::cg

namespace cooperative_groups {

// `bytes` bytes from src to dst, shared among the group's members.
template <class GroupT, class T, class Count>
void memcpy_async(const GroupT& group, T* dst, const T* src, const Count& bytes) {
  ::warpsim::shim::cg::copy_bytes(group, dst, src, static_cast<std::size_t>(bytes));
}

// min(dst_count, src_count) elements of T from src to dst.
template <class GroupT, class T, class DstCount, class SrcCount>
void memcpy_async(const GroupT& group, T* dst, const DstCount& dst_count, const T* src,
                  const SrcCount& src_count) {
  const auto dst_n = static_cast<std::size_t>(dst_count);
  const auto src_n = static_cast<std::size_t>(src_count);
  ::warpsim::shim::cg::copy_bytes(group, dst, src, (dst_n < src_n ? dst_n : src_n) * sizeof(T));
}

// Every copy the group issued is complete and visible to all members: the group's sync().
template <class GroupT>
void wait(const GroupT& group, Site site = Site::here()) {
  group.sync(site);
}
template <unsigned int Stage, class GroupT>
void wait_prior(const GroupT& group, Site site = Site::here()) {
  group.sync(site);
}

}  // namespace cooperative_groups
