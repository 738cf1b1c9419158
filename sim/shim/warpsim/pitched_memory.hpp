// Pitched and 3D memory for whole programs: cudaMallocPitch, cudaMalloc3D, cudaMemcpy2D,
// cudaMemcpy3D, cudaMemset2D/3D and their Async forms. Device memory is host memory, so each is
// a loop of row copies, done when the call returns (as every stream runs in issue order). The
// pitch is the row's bytes rounded up to 512, the H100's texture alignment (cudaDeviceProp::
// textureAlignment), as its cudaMallocPitch pads rows.
#pragma once

#include <cstddef>
#include <cstring>

struct cudaPitchedPtr {
  void* ptr;
  std::size_t pitch;
  std::size_t xsize;
  std::size_t ysize;
};
struct cudaExtent {
  std::size_t width;
  std::size_t height;
  std::size_t depth;
};
struct cudaPos {
  std::size_t x;
  std::size_t y;
  std::size_t z;
};
inline cudaPitchedPtr make_cudaPitchedPtr(void* d, std::size_t p, std::size_t xsz, std::size_t ysz) {
  return {d, p, xsz, ysz};
}
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) { return {x, y, z}; }
inline cudaExtent make_cudaExtent(std::size_t w, std::size_t h, std::size_t d) { return {w, h, d}; }

struct cudaArray;
using cudaArray_t = cudaArray*;
using cudaArray_const_t = const cudaArray*;
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};

namespace warpsim::shim {
inline constexpr std::size_t kPitchAlignment = 512;

// `height` rows of `width` bytes, each `source_pitch` apart, to rows `destination_pitch` apart.
inline cudaError_t copy_rows(void* destination, std::size_t destination_pitch,
                             const void* source, std::size_t source_pitch, std::size_t width,
                             std::size_t height, cudaMemcpyKind kind) {
  if (static_cast<int>(kind) < 0 || static_cast<int>(kind) > 4) return cudaErrorInvalidMemcpyDirection;
  if (width == 0 || height == 0) return cudaSuccess;
  if (destination == nullptr || source == nullptr) return cudaErrorInvalidValue;
  if (width > destination_pitch || width > source_pitch) return cudaErrorInvalidPitchValue;
  for (std::size_t row = 0; row < height; ++row) {
    std::memmove(static_cast<char*>(destination) + row * destination_pitch,
                 static_cast<const char*>(source) + row * source_pitch, width);
  }
  return cudaSuccess;
}
}  // namespace warpsim::shim

template <class T>
cudaError_t cudaMallocPitch(T** pointer, std::size_t* pitch, std::size_t width, std::size_t height) {
  if (pointer == nullptr || pitch == nullptr) return cudaErrorInvalidValue;
  const std::size_t a = ::warpsim::shim::kPitchAlignment;
  *pitch = (width + a - 1) / a * a;
  return warpsim_allocate(reinterpret_cast<void**>(pointer), *pitch * height);
}
inline cudaError_t cudaMalloc3D(cudaPitchedPtr* pointer, cudaExtent extent) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  std::size_t pitch = 0;
  void* memory = nullptr;
  const cudaError_t error = cudaMallocPitch(&memory, &pitch, extent.width, extent.height * extent.depth);
  if (error != cudaSuccess) return error;
  *pointer = make_cudaPitchedPtr(memory, pitch, extent.width, extent.height);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy2D(void* destination, std::size_t destination_pitch,
                                const void* source, std::size_t source_pitch, std::size_t width,
                                std::size_t height, cudaMemcpyKind kind) {
  return ::warpsim::shim::copy_rows(destination, destination_pitch, source, source_pitch, width,
                                    height, kind);
}
inline cudaError_t cudaMemcpy2DAsync(void* destination, std::size_t destination_pitch,
                                     const void* source, std::size_t source_pitch,
                                     std::size_t width, std::size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream = nullptr) {
  return static_cast<cudaError_t>(
      ::warpsim::shim::in_stream(stream, cudaGraphNodeTypeMemcpy, [=](cudaStream_t) {
        return cudaMemcpy2D(destination, destination_pitch, source, source_pitch, width, height,
                            kind);
      }));
}
inline cudaError_t cudaMemset2D(void* destination, std::size_t pitch, int value, std::size_t width,
                                std::size_t height) {
  if (width == 0 || height == 0) return cudaSuccess;
  if (destination == nullptr) return cudaErrorInvalidValue;
  if (width > pitch) return cudaErrorInvalidPitchValue;
  for (std::size_t row = 0; row < height; ++row)
    std::memset(static_cast<char*>(destination) + row * pitch, value, width);
  return cudaSuccess;
}
inline cudaError_t cudaMemset2DAsync(void* destination, std::size_t pitch, int value,
                                     std::size_t width, std::size_t height,
                                     cudaStream_t stream = nullptr) {
  return static_cast<cudaError_t>(
      ::warpsim::shim::in_stream(stream, cudaGraphNodeTypeMemset, [=](cudaStream_t) {
        return cudaMemset2D(destination, pitch, value, width, height);
      }));
}
inline cudaError_t cudaMemset3D(cudaPitchedPtr pointer, int value, cudaExtent extent) {
  return cudaMemset2D(pointer.ptr, pointer.pitch, value, extent.width,
                      pointer.ysize * (extent.depth == 0 ? 0 : extent.depth - 1) + extent.height);
}
inline cudaError_t cudaMemset3DAsync(cudaPitchedPtr pointer, int value, cudaExtent extent,
                                     cudaStream_t stream = nullptr) {
  return static_cast<cudaError_t>(::warpsim::shim::in_stream(
      stream, cudaGraphNodeTypeMemset,
      [=](cudaStream_t) { return cudaMemset3D(pointer, value, extent); }));
}
namespace warpsim::shim::arrays {
inline cudaError_t copy_3d(const cudaMemcpy3DParms& p);  // cuda_arrays.hpp
}
// Between pitched pointers, the extent's width in bytes; with a CUDA array on either side, in
// texels (cuda_arrays.hpp).
inline cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (p == nullptr) return cudaErrorInvalidValue;
  if (p->srcArray != nullptr || p->dstArray != nullptr) return ::warpsim::shim::arrays::copy_3d(*p);
  const cudaPitchedPtr& s = p->srcPtr;
  const cudaPitchedPtr& d = p->dstPtr;
  for (std::size_t z = 0; z < p->extent.depth; ++z) {
    const char* from = static_cast<const char*>(s.ptr) +
                       ((p->srcPos.z + z) * s.ysize + p->srcPos.y) * s.pitch + p->srcPos.x;
    char* to = static_cast<char*>(d.ptr) +
               ((p->dstPos.z + z) * d.ysize + p->dstPos.y) * d.pitch + p->dstPos.x;
    const cudaError_t error = ::warpsim::shim::copy_rows(to, d.pitch, from, s.pitch, p->extent.width,
                                                         p->extent.height, p->kind);
    if (error != cudaSuccess) return error;
  }
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = nullptr) {
  if (p == nullptr) return cudaErrorInvalidValue;
  return static_cast<cudaError_t>(::warpsim::shim::in_stream(
      stream, cudaGraphNodeTypeMemcpy, [copy = *p](cudaStream_t) { return cudaMemcpy3D(&copy); }));
}
