// Texture references (CUDA 11 and older; CUDA 12 removed them, nvcc 13 refuses them), which much
// older code still uses (Rodinia's kmeans, leukocyte, hybridsort, mummergpu): a file-scope
// `texture<float, 1, cudaReadModeElementType> t;`, bound to linear device memory with
// cudaBindTexture and read in kernels with tex1Dfetch(t, i), or bound to a CUDA array
// (cudaBindTextureToArray) or pitched memory (cudaBindTexture2D) and read with tex1D, tex2D or
// tex3D. Simulated: tex1Dfetch reads element i of the bound memory as the GPU does, 0 outside
// the bound bytes; a binding to an array or pitched memory makes a texture object
// (texture_objects.hpp) from the reference's fields as they are at the binding (normalized,
// filterMode, addressMode: set them before binding, as CUDA's samples do), and the reads are that
// object's. Reads returning normalized floats stop the launch at the read, naming it.
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
  // What cudaBindTextureToArray or cudaBindTexture2D bound: a texture object made from the
  // reference's fields then.
  bool warpsim_has_object;
  cudaTextureObject_t warpsim_object;
  cudaTextureReadMode warpsim_read_mode;
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
    warpsim_read_mode = mode;
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
namespace warpsim::shim {
// Binds `reference` to `resource` through a texture object made from the reference's fields.
inline cudaError_t bind_reference_object(const textureReference* reference,
                                         const cudaResourceDesc& resource) {
  if (reference == nullptr) return cudaErrorInvalidValue;
  auto* bound = const_cast<textureReference*>(reference);
  cudaTextureDesc desc{};
  for (int i = 0; i < 3; ++i) desc.addressMode[i] = bound->addressMode[i];
  desc.filterMode = bound->filterMode;
  desc.readMode = bound->warpsim_read_mode;
  desc.normalizedCoords = bound->normalized;
  cudaTextureObject_t object = 0;
  const cudaError_t made = cudaCreateTextureObject(&object, &resource, &desc, nullptr);
  if (made != cudaSuccess) return made;
  if (bound->warpsim_has_object) cudaDestroyTextureObject(bound->warpsim_object);
  bound->warpsim_object = object;
  bound->warpsim_has_object = true;
  bound->warpsim_bound = nullptr;
  bound->warpsim_bound_bytes = 0;
  return cudaSuccess;
}
}  // namespace warpsim::shim

inline cudaError_t cudaUnbindTexture(const textureReference* reference) {
  if (reference == nullptr) return cudaErrorInvalidValue;
  auto* bound = const_cast<textureReference*>(reference);
  bound->warpsim_bound = nullptr;
  bound->warpsim_bound_bytes = 0;
  if (bound->warpsim_has_object) cudaDestroyTextureObject(bound->warpsim_object);
  bound->warpsim_has_object = false;
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
inline cudaError_t cudaBindTextureToArray(const textureReference* reference,
                                          cudaArray_const_t array,
                                          const cudaChannelFormatDesc* desc) {
  if (array == nullptr) return cudaErrorInvalidValue;
  if (desc != nullptr && reference != nullptr) {
    const_cast<textureReference*>(reference)->channelDesc = *desc;
  }
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = const_cast<cudaArray_t>(array);
  return ::warpsim::shim::bind_reference_object(reference, resource);
}
inline cudaError_t cudaBindTexture2D(std::size_t* offset, const textureReference* reference,
                                     const void* pointer, const cudaChannelFormatDesc* desc,
                                     std::size_t width, std::size_t height, std::size_t pitch) {
  if (reference == nullptr || pointer == nullptr) return cudaErrorInvalidValue;
  auto* bound = const_cast<textureReference*>(reference);
  if (desc != nullptr) bound->channelDesc = *desc;
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = const_cast<void*>(pointer);
  resource.res.pitch2D.desc = bound->channelDesc;
  resource.res.pitch2D.width = width;
  resource.res.pitch2D.height = height;
  resource.res.pitch2D.pitchInBytes = pitch;
  if (offset != nullptr) *offset = 0;
  return ::warpsim::shim::bind_reference_object(reference, resource);
}
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
  stop_launch("%s:%u: %s is not simulated (texture references are: tex1Dfetch over linear "
              "memory, and reads of element type over an array or pitched memory)",
              site.file, site.line, api);
}
// The texture object behind a reference bound to an array or pitched memory; a reference bound
// otherwise, or never, stops the launch.
inline cudaTextureObject_t reference_object(const textureReference& reference, const char* api,
                                            ::warpsim::device::CallSite site) {
  if (!reference.warpsim_has_object) {
    stop_launch("%s:%u: %s reads a texture reference that no cudaBindTextureToArray or "
                "cudaBindTexture2D bound",
                site.file, site.line, api);
  }
  return reference.warpsim_object;
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

// tex1D, tex2D, tex3D of a reference read as its element type: its texture object's read.
template <class T>
T tex1D(texture<T, 1, cudaReadModeElementType> reference, float x,
        ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  return tex1D<T>(::warpsim::shim::reference_object(reference, "tex1D", site), x, site);
}
template <class T>
T tex2D(texture<T, 2, cudaReadModeElementType> reference, float x, float y,
        ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  return tex2D<T>(::warpsim::shim::reference_object(reference, "tex2D", site), x, y, site);
}
template <class T>
T tex3D(texture<T, 3, cudaReadModeElementType> reference, float x, float y, float z,
        ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  return tex3D<T>(::warpsim::shim::reference_object(reference, "tex3D", site), x, y, z, site);
}

// Normalized-float reads return float: named, never simulated here.
template <class T>
float tex1Dfetch(texture<T, 1, cudaReadModeNormalizedFloat>, int,
                 ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  ::warpsim::shim::texture_reference_not_simulated("tex1Dfetch of a texture read as normalized float", site);
}
#define WARPSIM_TEXTURE_REFERENCE_READ(NAME, DIM, ...)                                    \
  template <class T>                                                                      \
  float NAME(texture<T, DIM, cudaReadModeNormalizedFloat>, __VA_ARGS__,                   \
             ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {    \
    ::warpsim::shim::texture_reference_not_simulated(                                     \
        #NAME " of a texture reference read as normalized float", site);                  \
  }
WARPSIM_TEXTURE_REFERENCE_READ(tex1D, 1, float)
WARPSIM_TEXTURE_REFERENCE_READ(tex2D, 2, float, float)
WARPSIM_TEXTURE_REFERENCE_READ(tex3D, 3, float, float, float)
#undef WARPSIM_TEXTURE_REFERENCE_READ
