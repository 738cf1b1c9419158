// Textures, surfaces and CUDA arrays: their types (CUDA's texture_types.h, surface_types.h,
// channel_descriptor.h). What uses them: cuda_arrays.hpp, texture_objects.hpp,
// surface_objects.hpp, texture_references.hpp.
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
inline cudaChannelFormatDesc cudaCreateChannelDescHalf() {
  return {16, 0, 0, 0, cudaChannelFormatKindFloat};
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() {
  return {16, 16, 0, 0, cudaChannelFormatKindFloat};
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() {
  return {16, 16, 16, 16, cudaChannelFormatKindFloat};
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

// Mipmapped arrays are not simulated: declared only, a call links to a stub that stops the
// program there, naming it and the line (library_stubs.cpp).
extern "C" {
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t*, const cudaChannelFormatDesc*,
                                     cudaExtent, unsigned int, unsigned int = 0);
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t*, cudaMipmappedArray_const_t, unsigned int);
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t);
}
