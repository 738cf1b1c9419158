// Texture references (CUDA 11 and older; CUDA 12 removed them, nvcc 13 refuses them), which much
// older code still uses (Rodinia's kmeans, leukocyte, hybridsort, mummergpu): a file-scope
// `texture<float, 1, cudaReadModeElementType> t;`, bound to linear device memory with
// cudaBindTexture and read in kernels with tex1Dfetch(t, i). Simulated: the reference remembers
// the bound pointer and size, and tex1Dfetch reads element i as the GPU does, 0 outside the bound
// bytes. Reads with filtering or coordinates (tex1D, tex2D, tex3D) and references bound to CUDA
// arrays (cudaBindTextureToArray, cudaBindTexture2D) are not simulated: the launch stops at the
// read, naming it, and the binding links to a stub that stops the program.
#pragma once

#include <climits>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "warpsim/launch_stop.hpp"
#include "warpsim/texture_types.hpp"

struct textureReference {
  int normalized;
  cudaTextureFilterMode filterMode;
  cudaTextureAddressMode addressMode[3];
  cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  // What cudaBindTexture bound (the simulator's; the toolkit's struct has reserved words here).
  const void* warpsim_bound;
  std::size_t warpsim_bound_bytes;
};

template <class T, int dim = 1, cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : textureReference {
  texture(int norm = 0, cudaTextureFilterMode filter = cudaFilterModePoint,
          cudaTextureAddressMode address = cudaAddressModeClamp)
      : textureReference{} {
    normalized = norm;
    filterMode = filter;
    addressMode[0] = addressMode[1] = addressMode[2] = address;
    channelDesc = cudaCreateChannelDesc<T>();
  }
  texture(int norm, cudaTextureFilterMode filter, cudaTextureAddressMode address,
          cudaChannelFormatDesc desc)
      : texture(norm, filter, address) {
    channelDesc = desc;
  }
};

// ---- host: binding linear memory

inline cudaError_t cudaBindTexture(std::size_t* offset, const textureReference* reference,
                                   const void* pointer, const cudaChannelFormatDesc* desc,
                                   std::size_t bytes = UINT_MAX) {
  if (reference == nullptr || (pointer == nullptr && bytes != 0)) return cudaErrorInvalidValue;
  // The reference is the program's own (non-const) object; the API takes it as const.
  auto* bound = const_cast<textureReference*>(reference);
  if (desc != nullptr) bound->channelDesc = *desc;
  bound->warpsim_bound = pointer;
  bound->warpsim_bound_bytes = bytes;
  if (offset != nullptr) *offset = 0;  // cudaMalloc'd memory is aligned: no offset
  return cudaSuccess;
}
template <class T, int dim, cudaTextureReadMode mode>
cudaError_t cudaBindTexture(std::size_t* offset, const texture<T, dim, mode>& reference,
                            const void* pointer, const cudaChannelFormatDesc& desc,
                            std::size_t bytes = UINT_MAX) {
  return cudaBindTexture(offset, &reference, pointer, &desc, bytes);
}
template <class T, int dim, cudaTextureReadMode mode>
cudaError_t cudaBindTexture(std::size_t* offset, const texture<T, dim, mode>& reference,
                            const void* pointer, std::size_t bytes = UINT_MAX) {
  return cudaBindTexture(offset, &reference, pointer, &reference.channelDesc, bytes);
}
inline cudaError_t cudaUnbindTexture(const textureReference* reference) {
  if (reference == nullptr) return cudaErrorInvalidValue;
  auto* bound = const_cast<textureReference*>(reference);
  bound->warpsim_bound = nullptr;
  bound->warpsim_bound_bytes = 0;
  return cudaSuccess;
}
template <class T, int dim, cudaTextureReadMode mode>
cudaError_t cudaUnbindTexture(const texture<T, dim, mode>& reference) {
  return cudaUnbindTexture(&reference);
}
inline cudaError_t cudaGetTextureAlignmentOffset(std::size_t* offset,
                                                 const textureReference* reference) {
  if (offset == nullptr || reference == nullptr) return cudaErrorInvalidValue;
  *offset = 0;
  return cudaSuccess;
}
// Declared only (CUDA arrays are not simulated): a call links to a stub that stops the program.
extern "C" cudaError_t cudaBindTextureToArray(const textureReference*, cudaArray_const_t,
                                              const cudaChannelFormatDesc*);
extern "C" cudaError_t cudaBindTexture2D(std::size_t*, const textureReference*, const void*,
                                         const cudaChannelFormatDesc*, std::size_t, std::size_t,
                                         std::size_t);
template <class T, int dim, cudaTextureReadMode mode>
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode>& reference, cudaArray_const_t array,
                                   const cudaChannelFormatDesc& desc) {
  return cudaBindTextureToArray(&reference, array, &desc);
}
template <class T, int dim, cudaTextureReadMode mode>
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode>& reference,
                                   cudaArray_const_t array) {
  return cudaBindTextureToArray(&reference, array, &reference.channelDesc);
}
template <class T, int dim, cudaTextureReadMode mode>
cudaError_t cudaBindTexture2D(std::size_t* offset, const texture<T, dim, mode>& reference,
                              const void* pointer, const cudaChannelFormatDesc& desc,
                              std::size_t width, std::size_t height, std::size_t pitch) {
  return cudaBindTexture2D(offset, &reference, pointer, &desc, width, height, pitch);
}
template <class T, int dim, cudaTextureReadMode mode>
cudaError_t cudaBindTexture2D(std::size_t* offset, const texture<T, dim, mode>& reference,
                              const void* pointer, std::size_t width, std::size_t height,
                              std::size_t pitch) {
  return cudaBindTexture2D(offset, &reference, pointer, &reference.channelDesc, width, height,
                           pitch);
}

// ---- kernel side

namespace warpsim::shim {
[[noreturn]] inline void texture_reference_not_simulated(const char* api,
                                                         ::warpsim::device::CallSite site) {
  stop_launch("%s:%u: texture references are simulated over linear memory with tex1Dfetch only "
              "(texture objects are simulated): %s",
              site.file, site.line, api);
}
}  // namespace warpsim::shim

// Element `x` of the linear memory bound to `reference`; 0 past either end, as the GPU answers.
// A reference never bound stops the launch (a GPU returns garbage or faults).
template <class T>
T tex1Dfetch(texture<T, 1, cudaReadModeElementType> reference, int x,
             ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  if (reference.warpsim_bound == nullptr) {
    ::warpsim::shim::stop_launch("%s:%u: tex1Dfetch reads a texture reference that no "
                                 "cudaBindTexture bound",
                                 site.file, site.line);
  }
  T value{};
  if (x >= 0 && static_cast<std::size_t>(x) < reference.warpsim_bound_bytes / sizeof(T)) {
    std::memcpy(&value, static_cast<const unsigned char*>(reference.warpsim_bound) +
                            static_cast<std::size_t>(x) * sizeof(T),
                sizeof(T));
  }
  return value;
}

#define WARPSIM_TEXTURE_REFERENCE_READ(NAME, DIM, ...)                                    \
  template <class T, cudaTextureReadMode mode>                                            \
  T NAME(texture<T, DIM, mode>, __VA_ARGS__,                                              \
         ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {        \
    ::warpsim::shim::texture_reference_not_simulated(#NAME " of a texture reference", site);        \
  }
// Normalized-float reads return float: named, never simulated here.
template <class T>
float tex1Dfetch(texture<T, 1, cudaReadModeNormalizedFloat>, int,
                 ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  ::warpsim::shim::texture_reference_not_simulated("tex1Dfetch of a texture read as normalized float", site);
}
WARPSIM_TEXTURE_REFERENCE_READ(tex1D, 1, float)
WARPSIM_TEXTURE_REFERENCE_READ(tex2D, 2, float, float)
WARPSIM_TEXTURE_REFERENCE_READ(tex3D, 3, float, float, float)
#undef WARPSIM_TEXTURE_REFERENCE_READ
