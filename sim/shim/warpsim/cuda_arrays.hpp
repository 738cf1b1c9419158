// CUDA arrays for whole programs: cudaMallocArray, cudaMalloc3DArray (1D, 2D, 3D, layered,
// cubemap), cudaFreeArray, cudaArrayGetInfo, cudaGetChannelDesc and the copies to, from and
// between arrays (cudaMemcpy[2D]ToArray, [2D]FromArray, [2D]ArrayToArray, cudaMemcpy3D with an
// array on either side). An array is host memory holding its texels densely, row after row,
// layer (or cubemap face, or 3D slice) after layer; textures and surfaces read it through
// texture_objects.hpp and surface_objects.hpp. Every copy is done when the call returns.
//
// Handles: the arrays a program made sit in a fixed table, so that a call given a pointer that
// no cudaMallocArray returned (or one already freed) answers cudaErrorInvalidResourceHandle
// instead of touching it. Mipmapped arrays are not simulated: cudaMallocMipmappedArray links to
// a stub that stops the program, naming it and its line.
#pragma once

#include <cstddef>
#include <cstring>
#include <new>

#include "warpsim/object_slots.hpp"
#include "warpsim/pitched_memory.hpp"
#include "warpsim/texture_types.hpp"

struct cudaArray {
  cudaChannelFormatDesc desc;
  cudaExtent extent;  // as asked for: height 0 for 1D, depth 0 for 1D and 2D
  unsigned flags;
  std::size_t texel_bytes;
  std::size_t width, height, depth;  // at least 1 each: the texels stored
  unsigned char* bytes;
  int users;   // texture and surface objects that read it
  bool freed;  // cudaFreeArray was called while objects still read it
  std::size_t row_bytes() const { return width * texel_bytes; }
  std::size_t total_bytes() const { return row_bytes() * height * depth; }
};

namespace warpsim::shim::arrays {

inline ObjectSlots<cudaArray> g_arrays;  // the live arrays (a handle is the array's address)

// The texel size a channel description makes (x, y, z, w in bits: 8, 16 or 32 each, channels
// from x on, 1, 2 or 4 of them, floats of 16 or 32 bits), 0 if no CUDA array or texture can hold it.
inline std::size_t texel_bytes_of(const cudaChannelFormatDesc& d) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  int channels = 0;
  for (int c = 0; c < 4; ++c) {
    if (bits[c] == 0) break;
    if (bits[c] != 8 && bits[c] != 16 && bits[c] != 32) return 0;
    if (c > 0 && bits[c] != bits[0]) return 0;
    ++channels;
  }
  for (int c = channels; c < 4; ++c) {
    if (bits[c] != 0) return 0;
  }
  if (channels == 0 || channels == 3) return 0;
  if (d.f == cudaChannelFormatKindFloat && bits[0] == 8) return 0;
  if (d.f != cudaChannelFormatKindSigned && d.f != cudaChannelFormatKindUnsigned &&
      d.f != cudaChannelFormatKindFloat) {
    return 0;
  }
  return static_cast<std::size_t>(channels * bits[0] / 8);
}

inline bool is_live(const cudaArray* array) { return g_arrays.holds(array); }

inline cudaError_t make(cudaArray_t* out, const cudaChannelFormatDesc* desc, cudaExtent extent,
                        unsigned flags) {
  if (out == nullptr || desc == nullptr) return cudaErrorInvalidValue;
  const std::size_t texel = texel_bytes_of(*desc);
  if (texel == 0) return cudaErrorInvalidChannelDescriptor;
  const unsigned known = cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap |
                         cudaArrayTextureGather;
  if ((flags & ~known) != 0) return cudaErrorInvalidValue;
  if (extent.width == 0) return cudaErrorInvalidValue;
  const bool layered = (flags & cudaArrayLayered) != 0;
  if ((flags & cudaArrayCubemap) != 0) {
    // Faces are square; 6 of them, or 6 a layer.
    if (extent.width != extent.height || extent.depth == 0 || extent.depth % 6 != 0 ||
        (!layered && extent.depth != 6)) {
      return cudaErrorInvalidValue;
    }
  }
  if (layered && extent.depth == 0) return cudaErrorInvalidValue;
  if (extent.depth != 0 && extent.height == 0 && !layered) return cudaErrorInvalidValue;
  auto* array = new cudaArray{};
  array->desc = *desc;
  array->extent = extent;
  array->flags = flags;
  array->texel_bytes = texel;
  array->width = extent.width;
  array->height = extent.height == 0 ? 1 : extent.height;
  array->depth = extent.depth == 0 ? 1 : extent.depth;
  const std::size_t bytes = array->total_bytes();
  if (bytes / array->texel_bytes / array->width / array->height != array->depth) {
    delete array;
    return cudaErrorMemoryAllocation;
  }
  array->bytes = new (std::nothrow) unsigned char[bytes]();
  if (array->bytes == nullptr) {
    delete array;
    return cudaErrorMemoryAllocation;
  }
  if (g_arrays.claim(array, 0) != g_arrays.kSlots) {
    *out = array;
    return cudaSuccess;
  }
  delete[] array->bytes;
  delete array;
  return cudaErrorMemoryAllocation;  // more than kSlots arrays at once
}

inline void release(cudaArray* array) {
  delete[] array->bytes;
  delete array;
}

// A texture or surface object starts or stops reading `array` (host side only).
inline void add_user(cudaArray* array) { __atomic_add_fetch(&array->users, 1, __ATOMIC_ACQ_REL); }
inline void drop_user(cudaArray* array) {
  if (__atomic_sub_fetch(&array->users, 1, __ATOMIC_ACQ_REL) == 0 && array->freed) release(array);
}

// The byte `offset` bytes past texel (x, y, z)'s first: where a copy of `count` bytes starts,
// or null if it would run past the array's end.
inline unsigned char* at(const cudaArray* array, std::size_t x_bytes, std::size_t y,
                         std::size_t z, std::size_t count) {
  const std::size_t start = (z * array->height + y) * array->row_bytes() + x_bytes;
  if (z >= array->depth || y >= array->height || start > array->total_bytes() ||
      count > array->total_bytes() - start) {
    return nullptr;
  }
  return array->bytes + start;
}

inline bool valid_kind(cudaMemcpyKind kind) {
  return static_cast<int>(kind) >= 0 && static_cast<int>(kind) <= 4;
}

// `height` rows of `width` bytes between an array's region starting at (x_bytes, y, z) and
// memory whose rows are `pitch` apart; `to_array` says which way.
inline cudaError_t copy_region(const cudaArray* array, std::size_t x_bytes, std::size_t y,
                               std::size_t z, void* memory, std::size_t pitch, std::size_t width,
                               std::size_t height, bool to_array, cudaMemcpyKind kind) {
  if (!valid_kind(kind)) return cudaErrorInvalidMemcpyDirection;
  if (!is_live(array)) return cudaErrorInvalidResourceHandle;
  if (width == 0 || height == 0) return cudaSuccess;
  if (memory == nullptr) return cudaErrorInvalidValue;
  if (width > pitch && height > 1) return cudaErrorInvalidPitchValue;
  if (x_bytes + width > array->row_bytes() || y + height > array->height) {
    return cudaErrorInvalidValue;
  }
  for (std::size_t row = 0; row < height; ++row) {
    unsigned char* texels = at(array, x_bytes, y + row, z, width);
    if (texels == nullptr) return cudaErrorInvalidValue;
    char* other = static_cast<char*>(memory) + row * pitch;
    if (to_array) {
      std::memmove(texels, other, width);
    } else {
      std::memmove(other, texels, width);
    }
  }
  return cudaSuccess;
}

// The older 1-D copies: `count` bytes from (w_offset bytes, h_offset rows) on, row after row.
inline cudaError_t copy_run(const cudaArray* array, std::size_t w_offset, std::size_t h_offset,
                            void* memory, std::size_t count, bool to_array, cudaMemcpyKind kind) {
  if (!valid_kind(kind)) return cudaErrorInvalidMemcpyDirection;
  if (!is_live(array)) return cudaErrorInvalidResourceHandle;
  if (count == 0) return cudaSuccess;
  if (memory == nullptr || w_offset >= array->row_bytes()) return cudaErrorInvalidValue;
  unsigned char* texels = at(array, w_offset, h_offset, 0, count);
  if (texels == nullptr) return cudaErrorInvalidValue;
  if (to_array) {
    std::memmove(texels, memory, count);
  } else {
    std::memmove(memory, texels, count);
  }
  return cudaSuccess;
}

}  // namespace warpsim::shim::arrays

inline cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                                   std::size_t width, std::size_t height = 0,
                                   unsigned int flags = 0) {
  if ((flags & (cudaArrayLayered | cudaArrayCubemap)) != 0) return cudaErrorInvalidValue;
  return ::warpsim::shim::arrays::make(array, desc, make_cudaExtent(width, height, 0), flags);
}
inline cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                                     cudaExtent extent, unsigned int flags = 0) {
  return ::warpsim::shim::arrays::make(array, desc, extent, flags);
}
inline cudaError_t cudaFreeArray(cudaArray_t array) {
  if (array == nullptr) return cudaSuccess;
  namespace a = ::warpsim::shim::arrays;
  if (!a::g_arrays.remove(array)) return cudaErrorInvalidResourceHandle;
  // Objects still reading it keep its texels until the last is destroyed.
  if (__atomic_load_n(&array->users, __ATOMIC_ACQUIRE) == 0) {
    a::release(array);
  } else {
    array->freed = true;
  }
  return cudaSuccess;
}
inline cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent,
                                    unsigned int* flags, cudaArray_t array) {
  if (!::warpsim::shim::arrays::is_live(array)) return cudaErrorInvalidResourceHandle;
  if (desc != nullptr) *desc = array->desc;
  if (extent != nullptr) *extent = array->extent;
  if (flags != nullptr) *flags = array->flags;
  return cudaSuccess;
}
inline cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (desc == nullptr) return cudaErrorInvalidValue;
  if (!::warpsim::shim::arrays::is_live(array)) return cudaErrorInvalidResourceHandle;
  *desc = array->desc;
  return cudaSuccess;
}

inline cudaError_t cudaMemcpyToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset,
                                     const void* src, std::size_t count, cudaMemcpyKind kind) {
  return ::warpsim::shim::arrays::copy_run(dst, w_offset, h_offset, const_cast<void*>(src), count,
                                           true, kind);
}
inline cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, std::size_t w_offset,
                                       std::size_t h_offset, std::size_t count,
                                       cudaMemcpyKind kind) {
  return ::warpsim::shim::arrays::copy_run(src, w_offset, h_offset, dst, count, false, kind);
}
inline cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset,
                                       const void* src, std::size_t spitch, std::size_t width,
                                       std::size_t height, cudaMemcpyKind kind) {
  return ::warpsim::shim::arrays::copy_region(dst, w_offset, h_offset, 0, const_cast<void*>(src),
                                              spitch, width, height, true, kind);
}
inline cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, cudaArray_const_t src,
                                         std::size_t w_offset, std::size_t h_offset,
                                         std::size_t width, std::size_t height,
                                         cudaMemcpyKind kind) {
  return ::warpsim::shim::arrays::copy_region(src, w_offset, h_offset, 0, dst, dpitch, width,
                                              height, false, kind);
}
inline cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, std::size_t w_offset_dst,
                                            std::size_t h_offset_dst, cudaArray_const_t src,
                                            std::size_t w_offset_src, std::size_t h_offset_src,
                                            std::size_t width, std::size_t height,
                                            cudaMemcpyKind kind = cudaMemcpyDeviceToDevice) {
  namespace a = ::warpsim::shim::arrays;
  if (!a::valid_kind(kind)) return cudaErrorInvalidMemcpyDirection;
  if (!a::is_live(dst) || !a::is_live(src)) return cudaErrorInvalidResourceHandle;
  for (std::size_t row = 0; row < height; ++row) {
    unsigned char* from = a::at(src, w_offset_src, h_offset_src + row, 0, width);
    unsigned char* to = a::at(dst, w_offset_dst, h_offset_dst + row, 0, width);
    if (from == nullptr || to == nullptr || w_offset_src + width > src->row_bytes() ||
        w_offset_dst + width > dst->row_bytes()) {
      return cudaErrorInvalidValue;
    }
    std::memmove(to, from, width);
  }
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, std::size_t w_offset_dst,
                                          std::size_t h_offset_dst, cudaArray_const_t src,
                                          std::size_t w_offset_src, std::size_t h_offset_src,
                                          std::size_t count,
                                          cudaMemcpyKind kind = cudaMemcpyDeviceToDevice) {
  namespace a = ::warpsim::shim::arrays;
  if (!a::valid_kind(kind)) return cudaErrorInvalidMemcpyDirection;
  if (!a::is_live(dst) || !a::is_live(src)) return cudaErrorInvalidResourceHandle;
  unsigned char* from = a::at(src, w_offset_src, h_offset_src, 0, count);
  unsigned char* to = a::at(dst, w_offset_dst, h_offset_dst, 0, count);
  if (count == 0) return cudaSuccess;
  if (from == nullptr || to == nullptr) return cudaErrorInvalidValue;
  std::memmove(to, from, count);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, std::size_t w_offset,
                                          std::size_t h_offset, const void* src,
                                          std::size_t count, cudaMemcpyKind kind,
                                          cudaStream_t = nullptr) {
  return cudaMemcpyToArray(dst, w_offset, h_offset, src, count, kind);
}
inline cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, std::size_t w_offset,
                                            std::size_t h_offset, std::size_t count,
                                            cudaMemcpyKind kind, cudaStream_t = nullptr) {
  return cudaMemcpyFromArray(dst, src, w_offset, h_offset, count, kind);
}
inline cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, std::size_t w_offset,
                                            std::size_t h_offset, const void* src,
                                            std::size_t spitch, std::size_t width,
                                            std::size_t height, cudaMemcpyKind kind,
                                            cudaStream_t = nullptr) {
  return cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind);
}
inline cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, std::size_t dpitch, cudaArray_const_t src,
                                              std::size_t w_offset, std::size_t h_offset,
                                              std::size_t width, std::size_t height,
                                              cudaMemcpyKind kind, cudaStream_t = nullptr) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind);
}

namespace warpsim::shim::arrays {
// cudaMemcpy3D with an array on one side or both: the extent and an array's position count
// texels (a pitched pointer's position.x counts bytes), each 2-D slice of the extent is one
// layer, face or 3-D slice of the array.
// Where row (y, z) of a 3-D copy's side starts, in its array or behind its pitched pointer;
// null when the row is outside the array or the pointer is null.
inline unsigned char* row_of(cudaArray* array, const cudaPitchedPtr& pointer, cudaPos position,
                             std::size_t y, std::size_t z, std::size_t texel, std::size_t width) {
  if (array != nullptr) {
    if (position.x * texel + width > array->row_bytes()) return nullptr;
    return at(array, position.x * texel, position.y + y, position.z + z, width);
  }
  if (pointer.ptr == nullptr) return nullptr;
  return static_cast<unsigned char*>(pointer.ptr) +
         ((position.z + z) * pointer.ysize + position.y + y) * pointer.pitch + position.x;
}
inline cudaError_t copy_3d(const cudaMemcpy3DParms& p) {
  if (!valid_kind(p.kind)) return cudaErrorInvalidMemcpyDirection;
  const cudaArray* arrays[2] = {p.srcArray, p.dstArray};
  std::size_t texel = 0;
  for (const cudaArray* array : arrays) {
    if (array == nullptr) continue;
    if (!is_live(array)) return cudaErrorInvalidResourceHandle;
    if (texel != 0 && texel != array->texel_bytes) return cudaErrorInvalidValue;
    texel = array->texel_bytes;
  }
  const std::size_t width = p.extent.width * texel;  // bytes a row
  for (std::size_t z = 0; z < p.extent.depth; ++z) {
    for (std::size_t y = 0; y < p.extent.height; ++y) {
      const void* from = row_of(p.srcArray, p.srcPtr, p.srcPos, y, z, texel, width);
      void* to = row_of(p.dstArray, p.dstPtr, p.dstPos, y, z, texel, width);
      if (from == nullptr || to == nullptr) return cudaErrorInvalidValue;
      std::memmove(to, from, width);
    }
  }
  return cudaSuccess;
}
}  // namespace warpsim::shim::arrays
