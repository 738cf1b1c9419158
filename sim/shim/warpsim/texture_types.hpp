// Textures, surfaces and CUDA arrays: their types, so that programs that use them compile (CUDA's
// texture_types.h, surface_types.h, channel_descriptor.h). None is simulated: the host functions
// that make them are declared without a definition, and warpsim links a stub for each one called
// that stops the program there, naming it and the line (library_stubs.hpp); a kernel that reads
// a texture or surface stops its launch at that line.
#pragma once

#include <cstddef>
#include <type_traits>

#include "warpsim/launch_stop.hpp"

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
  cudaChannelFormatKindNV12 = 4,
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  cudaChannelFormatKind f;
};
inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}
namespace warpsim::shim {
template <class T>
constexpr cudaChannelFormatKind channel_kind() {
  return std::is_floating_point_v<T> ? cudaChannelFormatKindFloat
         : std::is_signed_v<T>       ? cudaChannelFormatKindSigned
                                     : cudaChannelFormatKindUnsigned;
}
template <class T>
struct Channels {
  static cudaChannelFormatDesc desc() {
    if constexpr (std::is_arithmetic_v<T>) {
      return {static_cast<int>(8 * sizeof(T)), 0, 0, 0, channel_kind<T>()};
    } else {
      // A vector type: its members' type and count.
      using E = std::remove_reference_t<decltype(T{}.x)>;
      const int n = static_cast<int>(sizeof(T) / sizeof(E));
      const int bits = static_cast<int>(8 * sizeof(E));
      return {bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 3 ? bits : 0, channel_kind<E>()};
    }
  }
};
}  // namespace warpsim::shim
template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  return ::warpsim::shim::Channels<T>::desc();
}

using cudaTextureObject_t = unsigned long long;
using cudaSurfaceObject_t = unsigned long long;
struct cudaMipmappedArray;
using cudaMipmappedArray_t = cudaMipmappedArray*;
using cudaMipmappedArray_const_t = const cudaMipmappedArray*;

enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03
};
struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t width;
      std::size_t height;
      std::size_t pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};
struct cudaResourceViewDesc;

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

inline constexpr unsigned cudaArrayDefault = 0x00;
inline constexpr unsigned cudaArrayLayered = 0x01;
inline constexpr unsigned cudaArraySurfaceLoadStore = 0x02;
inline constexpr unsigned cudaArrayCubemap = 0x04;
inline constexpr unsigned cudaArrayTextureGather = 0x08;

// Declared only: a call links to a stub that stops the program (see the top of this file).
extern "C" {
cudaError_t cudaCreateTextureObject(cudaTextureObject_t*, const cudaResourceDesc*,
                                    const cudaTextureDesc*, const cudaResourceViewDesc*);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t*, const cudaResourceDesc*);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t);
cudaError_t cudaMallocArray(cudaArray_t*, const cudaChannelFormatDesc*, std::size_t,
                            std::size_t = 0, unsigned int = 0);
cudaError_t cudaMalloc3DArray(cudaArray_t*, const cudaChannelFormatDesc*, cudaExtent,
                              unsigned int = 0);
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t*, const cudaChannelFormatDesc*,
                                     cudaExtent, unsigned int, unsigned int = 0);
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t*, cudaMipmappedArray_const_t, unsigned int);
cudaError_t cudaFreeArray(cudaArray_t);
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t);
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc*, cudaExtent*, unsigned int*, cudaArray_t);
cudaError_t cudaMemcpyToArray(cudaArray_t, std::size_t, std::size_t, const void*, std::size_t,
                              cudaMemcpyKind);
cudaError_t cudaMemcpyFromArray(void*, cudaArray_const_t, std::size_t, std::size_t, std::size_t,
                                cudaMemcpyKind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t, std::size_t, std::size_t, const void*, std::size_t,
                                std::size_t, std::size_t, cudaMemcpyKind);
cudaError_t cudaMemcpy2DFromArray(void*, std::size_t, cudaArray_const_t, std::size_t,
                                  std::size_t, std::size_t, std::size_t, cudaMemcpyKind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t, std::size_t, std::size_t, const void*,
                                     std::size_t, std::size_t, std::size_t, cudaMemcpyKind,
                                     cudaStream_t = nullptr);
cudaError_t cudaMemcpy2DFromArrayAsync(void*, std::size_t, cudaArray_const_t, std::size_t,
                                       std::size_t, std::size_t, std::size_t, cudaMemcpyKind,
                                       cudaStream_t = nullptr);
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t, std::size_t, std::size_t, const void*,
                                   std::size_t, cudaMemcpyKind, cudaStream_t = nullptr);
}

// ---- kernel side: each fetch stops the launch at its line

namespace warpsim::shim {
[[noreturn]] inline void texture_not_simulated(const char* api, ::warpsim::device::CallSite site) {
  stop_launch("%s:%u: textures and surfaces are not simulated: %s", site.file, site.line, api);
}
}  // namespace warpsim::shim

#define WARPSIM_TEXTURE_READ(NAME, ...)                                                        \
  template <class T>                                                                           \
  T NAME(cudaTextureObject_t, __VA_ARGS__,                                                     \
         ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {             \
    ::warpsim::shim::texture_not_simulated(#NAME, site);                                       \
  }
WARPSIM_TEXTURE_READ(tex1Dfetch, int)
WARPSIM_TEXTURE_READ(tex1D, float)
WARPSIM_TEXTURE_READ(tex2D, float, float)
WARPSIM_TEXTURE_READ(tex3D, float, float, float)
WARPSIM_TEXTURE_READ(tex1DLayered, float, int)
WARPSIM_TEXTURE_READ(tex2DLayered, float, float, int)
WARPSIM_TEXTURE_READ(texCubemap, float, float, float)
WARPSIM_TEXTURE_READ(tex1DLod, float, float)
WARPSIM_TEXTURE_READ(tex2DLod, float, float, float)
WARPSIM_TEXTURE_READ(tex3DLod, float, float, float, float)
WARPSIM_TEXTURE_READ(tex2Dgather, float, float, int)
#undef WARPSIM_TEXTURE_READ

#define WARPSIM_SURFACE_READ(NAME, ...)                                                        \
  template <class T>                                                                           \
  T NAME(cudaSurfaceObject_t, __VA_ARGS__,                                                     \
         cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,                                       \
         ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {             \
    ::warpsim::shim::texture_not_simulated(#NAME, site);                                       \
  }
#define WARPSIM_SURFACE_WRITE(NAME, ...)                                                       \
  template <class T>                                                                           \
  void NAME(T, cudaSurfaceObject_t, __VA_ARGS__,                                               \
            cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,                                    \
            ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {          \
    ::warpsim::shim::texture_not_simulated(#NAME, site);                                       \
  }
WARPSIM_SURFACE_READ(surf1Dread, int)
WARPSIM_SURFACE_READ(surf2Dread, int, int)
WARPSIM_SURFACE_READ(surf3Dread, int, int, int)
WARPSIM_SURFACE_READ(surf2DLayeredread, int, int, int)
WARPSIM_SURFACE_WRITE(surf1Dwrite, int)
WARPSIM_SURFACE_WRITE(surf2Dwrite, int, int)
WARPSIM_SURFACE_WRITE(surf3Dwrite, int, int, int)
WARPSIM_SURFACE_WRITE(surf2DLayeredwrite, int, int, int)
#undef WARPSIM_SURFACE_READ
#undef WARPSIM_SURFACE_WRITE
