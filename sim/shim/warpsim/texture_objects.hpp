// Texture objects: cudaCreateTextureObject over a CUDA array, linear memory or pitched 2-D
// memory, and the kernel's fetches (tex1Dfetch, tex1D, tex2D, tex3D, tex1DLayered,
// tex2DLayered, texCubemap, texCubemapLayered and their Lod forms), templates over the returned
// type as in CUDA's texture_indirect_functions.h. Each fetch computes what the CUDA C++
// Programming Guide's "Texture Fetching" appendix states:
//   - normalized coordinates are scaled by the size (x = N * x^) after the address mode, which
//     for wrap replaces x^ by frac(x^) and for mirror by frac(x^) or 1 - frac(x^) (floor(x^) odd);
//     wrap and mirror need normalized coordinates, and act as clamp without them;
//   - point sampling reads T[floor(x)]; linear filtering reads T[i] and T[i+1] with i =
//     floor(x - 0.5) and weight alpha = frac(x - 0.5) held in 9-bit fixed point with 8 fraction
//     bits (so rounded to a multiple of 1/256 here), (1 - alpha) T[i] + alpha T[i+1], and the
//     products of the weights of each axis in 2-D and 3-D;
//   - a texel index out of range is clamped (clamp), taken modulo the size (wrap), reflected
//     (mirror) or replaced by the border colour (border);
//   - cudaReadModeNormalizedFloat maps 8- and 16-bit integers to [0, 1] (unsigned) or [-1, 1]
//     (signed: v / (2^(n-1) - 1), at least -1);
//   - a cubemap fetch picks the face by the coordinate of largest magnitude and reads that face
//     at ((sc / |ma| + 1) / 2, (tc / |ma| + 1) / 2) (the guide's table of sc, tc, ma per face),
//     clamped at the face's edges (seamless filtering across faces is not simulated).
// The GPU computes the filter's products in reduced precision; here they are fp32, so a linearly
// filtered result can differ from a GPU's in its last bits.
//
// What the guide leaves undefined stops the launch at the fetch's line instead of answering:
// a handle no cudaCreateTextureObject returned, a fetch whose dimensions do not match the
// resource (tex2D of linear memory), linear filtering of texels returned as integers, a return
// type whose kind (integer or floating point) is not what the texture returns.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "warpsim/cuda_arrays.hpp"
#include "warpsim/launch_stop.hpp"
#include "warpsim/texture_types.hpp"

namespace warpsim::shim::textures {

using ::warpsim::device::CallSite;

// What a texture or surface reads: its kind, texels and layout.
enum class Shape { linear, pitch2d, array1d, array2d, array3d, layered1d, layered2d, cubemap,
                   cubemap_layered };

inline const char* shape_name(Shape shape) {
  switch (shape) {
    case Shape::linear: return "linear memory";
    case Shape::pitch2d: return "pitched 2-D memory";
    case Shape::array1d: return "a 1-D CUDA array";
    case Shape::array2d: return "a 2-D CUDA array";
    case Shape::array3d: return "a 3-D CUDA array";
    case Shape::layered1d: return "a layered 1-D CUDA array";
    case Shape::layered2d: return "a layered 2-D CUDA array";
    case Shape::cubemap: return "a cubemap CUDA array";
    case Shape::cubemap_layered: return "a layered cubemap CUDA array";
  }
  return "?";
}

struct Image {
  unsigned char* bytes;
  std::size_t texel_bytes;
  std::size_t pitch;  // bytes between rows
  std::size_t slice;  // bytes between 2-D slices: 3-D slices, layers, faces
  int width, height, depth;  // depth: 3-D slices, layers, or faces (6 a cubemap layer)
  Shape shape;
  cudaChannelFormatDesc desc;
  cudaArray* array;  // the CUDA array read, or null
  unsigned char* texel(int x, int y, int z) const {
    return bytes + static_cast<std::size_t>(z) * slice + static_cast<std::size_t>(y) * pitch +
           static_cast<std::size_t>(x) * texel_bytes;
  }
};

inline Shape shape_of(const cudaArray& array) {
  const bool layered = (array.flags & cudaArrayLayered) != 0;
  if ((array.flags & cudaArrayCubemap) != 0) return layered ? Shape::cubemap_layered : Shape::cubemap;
  if (layered) return array.extent.height == 0 ? Shape::layered1d : Shape::layered2d;
  if (array.extent.height == 0) return Shape::array1d;
  return array.extent.depth == 0 ? Shape::array2d : Shape::array3d;
}

// The image a resource description names, or the error cudaCreateTextureObject answers.
inline cudaError_t image_of(const cudaResourceDesc& resource, Image& image) {
  image = Image{};
  switch (resource.resType) {
    case cudaResourceTypeArray: {
      cudaArray* array = resource.res.array.array;
      if (!arrays::is_live(array)) return cudaErrorInvalidResourceHandle;
      image.bytes = array->bytes;
      image.texel_bytes = array->texel_bytes;
      image.pitch = array->row_bytes();
      image.slice = image.pitch * array->height;
      image.width = static_cast<int>(array->width);
      image.height = static_cast<int>(array->height);
      image.depth = static_cast<int>(array->depth);
      image.shape = shape_of(*array);
      image.desc = array->desc;
      image.array = array;
      return cudaSuccess;
    }
    case cudaResourceTypeLinear: {
      const auto& linear = resource.res.linear;
      image.texel_bytes = arrays::texel_bytes_of(linear.desc);
      if (image.texel_bytes == 0) return cudaErrorInvalidChannelDescriptor;
      if (linear.devPtr == nullptr) return cudaErrorInvalidValue;
      image.bytes = static_cast<unsigned char*>(linear.devPtr);
      image.width = static_cast<int>(linear.sizeInBytes / image.texel_bytes);
      image.height = image.depth = 1;
      image.pitch = image.slice = linear.sizeInBytes;
      image.shape = Shape::linear;
      image.desc = linear.desc;
      return cudaSuccess;
    }
    case cudaResourceTypePitch2D: {
      const auto& pitched = resource.res.pitch2D;
      image.texel_bytes = arrays::texel_bytes_of(pitched.desc);
      if (image.texel_bytes == 0) return cudaErrorInvalidChannelDescriptor;
      if (pitched.devPtr == nullptr || pitched.width == 0 || pitched.height == 0 ||
          pitched.pitchInBytes < pitched.width * image.texel_bytes) {
        return cudaErrorInvalidValue;
      }
      image.bytes = static_cast<unsigned char*>(pitched.devPtr);
      image.width = static_cast<int>(pitched.width);
      image.height = static_cast<int>(pitched.height);
      image.depth = 1;
      image.pitch = pitched.pitchInBytes;
      image.slice = pitched.pitchInBytes * pitched.height;
      image.shape = Shape::pitch2d;
      image.desc = pitched.desc;
      return cudaSuccess;
    }
    default: return cudaErrorInvalidValue;
  }
}

struct Texture {
  Image image;
  cudaResourceDesc resource;
  cudaTextureDesc desc;
  bool float_result;  // float texels, or 8/16-bit integers read as normalized floats
  bool one_float;     // texels of one 32-bit float (tex2D's fast path)
};

inline ObjectSlots<Texture> g_textures;  // a texture object's handle is its slot

inline const Texture& texture_at(cudaTextureObject_t handle, const char* api, CallSite site) {
  const Texture* texture = g_textures.at(handle);
  if (texture == nullptr) {
    stop_launch("%s:%u: %s reads texture object %llu, which no cudaCreateTextureObject made "
                "(or cudaDestroyTextureObject destroyed)",
                site.file, site.line, api, static_cast<unsigned long long>(handle));
  }
  return *texture;
}

// The channels of one texel (or of a filtered sample): floats when the texture returns floats,
// otherwise the integers, exactly (a double holds every 32-bit integer).
struct Texel {
  double channel[4];
};

inline float half_bits_to_float(unsigned short h) {
  const unsigned sign = (h >> 15) & 1u, exponent = (h >> 10) & 0x1fu, fraction = h & 0x3ffu;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(fraction), -24);
  } else if (exponent == 31) {
    magnitude = fraction == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(fraction | 0x400u), static_cast<int>(exponent) - 25);
  }
  return sign != 0 ? -magnitude : magnitude;
}

__attribute__((always_inline)) inline Texel read_texel(const Texture& texture, int x, int y, int z) {
  const Image& image = texture.image;
  const unsigned char* at = image.texel(x, y, z);
  if (image.desc.f == cudaChannelFormatKindFloat && image.desc.x == 32 && image.desc.y == 0) {
    float f;  // the common case, one float, without the loop
    std::memcpy(&f, at, 4);
    return Texel{{f, 0, 0, 0}};
  }
  const int bits = image.desc.x;
  const int channels = static_cast<int>(image.texel_bytes * 8 / static_cast<std::size_t>(bits));
  const bool normalized = texture.desc.readMode == cudaReadModeNormalizedFloat;
  Texel texel{};
  for (int c = 0; c < channels; ++c, at += bits / 8) {
    double value = 0;
    if (image.desc.f == cudaChannelFormatKindFloat) {
      if (bits == 32) {
        float f;
        std::memcpy(&f, at, 4);
        value = f;
      } else {
        unsigned short h;
        std::memcpy(&h, at, 2);
        value = half_bits_to_float(h);
      }
    } else if (image.desc.f == cudaChannelFormatKindUnsigned) {
      if (bits == 8) {
        value = *at;
        if (normalized) value = static_cast<float>(value) / 255.0f;
      } else if (bits == 16) {
        unsigned short u;
        std::memcpy(&u, at, 2);
        value = normalized ? u / 65535.0f : u;
      } else {
        unsigned u;
        std::memcpy(&u, at, 4);
        value = u;
      }
    } else {
      if (bits == 8) {
        const signed char s = static_cast<signed char>(*at);
        value = normalized ? std::fmax(s / 127.0f, -1.0f) : s;
      } else if (bits == 16) {
        short s;
        std::memcpy(&s, at, 2);
        value = normalized ? std::fmax(s / 32767.0f, -1.0f) : s;
      } else {
        int s;
        std::memcpy(&s, at, 4);
        value = s;
      }
    }
    texel.channel[c] = value;
  }
  return texel;
}

// One axis of a fetch: the texel indices it reads (one, or two when filtering linearly) and the
// weight of the second; -1 is the border.
struct Axis {
  int index[2];
  float weight;
};

__attribute__((always_inline)) inline int address(long long i, int n, cudaTextureAddressMode mode) {
  if (i >= 0 && i < n) return static_cast<int>(i);  // inside: every mode agrees (no division)
  switch (mode) {
    case cudaAddressModeWrap: {
      long long k = i % n;
      return static_cast<int>(k < 0 ? k + n : k);
    }
    case cudaAddressModeMirror: {
      const long long period = 2LL * n;
      long long k = i % period;
      if (k < 0) k += period;
      return static_cast<int>(k < n ? k : period - 1 - k);
    }
    case cudaAddressModeBorder: return i < 0 || i >= n ? -1 : static_cast<int>(i);
    default: return static_cast<int>(i < 0 ? 0 : i >= n ? n - 1 : i);
  }
}

// floor(c) for |c| <= 1e9, inline (std::floor is a library call without SSE4.1).
__attribute__((always_inline)) inline float floor_of(float c) {
  const float truncated = static_cast<float>(static_cast<long long>(c));
  return truncated > c ? truncated - 1.0f : truncated;
}

__attribute__((always_inline)) inline Axis axis(float c, int n, cudaTextureAddressMode mode, bool normalized, bool linear) {
  // Far outside, every mode has settled: keep the index within a long long.
  const float limit = 1e9f;
  if (!(c >= -limit)) c = c != c ? 0 : -limit;  // NaN reads as 0
  if (c > limit) c = limit;
  if (normalized) {
    if (mode == cudaAddressModeWrap) {
      c -= floor_of(c);
    } else if (mode == cudaAddressModeMirror) {
      const float whole = floor_of(c);
      const bool odd = std::fmod(std::fabs(whole), 2.0f) == 1.0f;
      c = odd ? 1.0f - (c - whole) : c - whole;
    }
    c *= static_cast<float>(n);
  } else if (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror) {
    mode = cudaAddressModeClamp;
  }
  Axis a{};
  if (linear) {
    const float below = c - 0.5f;
    const float whole = floor_of(below);
    // frac * 256 to the nearest integer, ties to even (as std::rint), in 1/256ths.
    const float scaled = (below - whole) * 256.0f;
    float steps = floor_of(scaled + 0.5f);
    if (steps - scaled == 0.5f && static_cast<long long>(steps) % 2 != 0) steps -= 1.0f;
    a.weight = steps / 256.0f;
    const long long i = static_cast<long long>(whole);
    a.index[0] = address(i, n, mode);
    a.index[1] = address(i + 1, n, mode);
  } else {
    a.index[0] = a.index[1] = address(static_cast<long long>(floor_of(c)), n, mode);
    a.weight = 0;
  }
  return a;
}

// One of the 2, 4 or 8 texels a linear filter reads (`corner`'s bit k: the second index of axis
// k) and its weight, the product of the axes' weights.
struct Corner {
  int index[3];
  float weight;
};
__attribute__((always_inline)) inline Corner corner_of(const Axis (&axes)[3], int dims,
                                                       int corner) {
  Corner at{{0, 0, 0}, 1.0f};
  for (int k = 0; k < 3; ++k) {
    const int side = k < dims ? (corner >> k) & 1 : 0;
    if (k < dims) at.weight *= side != 0 ? axes[k].weight : 1.0f - axes[k].weight;
    at.index[k] = axes[k].index[side];
  }
  return at;
}

// A fetch at (x, y, z) of `dims` filtered axes, in 2-D slice `slice` beyond the third axis
// (a layer, a face).
inline Texel sample(const Texture& texture, int dims, float x, float y, float z, int slice,
                    bool force_normalized, const char* api, CallSite site) {
  const Image& image = texture.image;
  const cudaTextureDesc& d = texture.desc;
  const bool linear = d.filterMode == cudaFilterModeLinear;
  if (linear && !texture.float_result) {
    stop_launch("%s:%u: %s filters linearly a texture that returns integers (its texels are "
                "integers read as cudaReadModeElementType): the GPU does not define the result",
                site.file, site.line, api);
  }
  const bool normalized = force_normalized || d.normalizedCoords != 0;
  const float coordinate[3] = {x, y, z};
  const int size[3] = {image.width, image.height, image.depth};
  Axis axes[3] = {{{0, 0}, 0}, {{0, 0}, 0}, {{slice, slice}, 0}};
  for (int k = 0; k < dims; ++k) {
    const cudaTextureAddressMode mode =
        force_normalized ? cudaAddressModeClamp : d.addressMode[k];
    axes[k] = axis(coordinate[k], size[k], mode, normalized, linear);
  }
  if (!linear) {
    if (axes[0].index[0] < 0 || axes[1].index[0] < 0 || axes[2].index[0] < 0) {
      Texel border{};
      for (int c = 0; c < 4; ++c) border.channel[c] = d.borderColor[c];
      return border;
    }
    return read_texel(texture, axes[0].index[0], axes[1].index[0], axes[2].index[0]);
  }
  // Corners in the guide's order: x varies fastest, then y, then z.
  const int corners = 1 << dims;
  const bool one_float = image.desc.f == cudaChannelFormatKindFloat && image.desc.x == 32 &&
                         image.desc.y == 0;
  if (one_float) {  // the common case, kept in registers
    float sum = 0;
    for (int corner = 0; corner < corners; ++corner) {
      const Corner at = corner_of(axes, dims, corner);
      float value = d.borderColor[0];
      if (at.index[0] >= 0 && at.index[1] >= 0 && at.index[2] >= 0) {
        std::memcpy(&value, image.texel(at.index[0], at.index[1], at.index[2]), 4);
      }
      sum += at.weight * value;
    }
    return Texel{{sum, 0, 0, 0}};
  }
  float sum[4] = {0, 0, 0, 0};
  for (int corner = 0; corner < corners; ++corner) {
    const Corner at = corner_of(axes, dims, corner);
    Texel texel{};
    if (at.index[0] < 0 || at.index[1] < 0 || at.index[2] < 0) {
      for (int c = 0; c < 4; ++c) texel.channel[c] = d.borderColor[c];
    } else {
      texel = read_texel(texture, at.index[0], at.index[1], at.index[2]);
    }
    for (int c = 0; c < 4; ++c) sum[c] += at.weight * static_cast<float>(texel.channel[c]);
  }
  return Texel{{sum[0], sum[1], sum[2], sum[3]}};
}

// tex2D of a texture of one float, the common case, in one piece: the same arithmetic as
// sample()'s, without its loops over axes and corners (kernels build at -O1, which keeps them).
inline float sample_2d_one_float(const Texture& texture, float x, float y) {
  const Image& image = texture.image;
  const cudaTextureDesc& d = texture.desc;
  const bool normalized = d.normalizedCoords != 0;
  const bool linear = d.filterMode == cudaFilterModeLinear;
  const Axis ax = axis(x, image.width, d.addressMode[0], normalized, linear);
  const Axis ay = axis(y, image.height, d.addressMode[1], normalized, linear);
  const auto at = [&](int i, int j) {
    float value = d.borderColor[0];
    if (i >= 0 && j >= 0) std::memcpy(&value, image.texel(i, j, 0), 4);
    return value;
  };
  if (!linear) return at(ax.index[0], ay.index[0]);
  const float a = ax.weight, b = ay.weight;
  return (1.0f - a) * (1.0f - b) * at(ax.index[0], ay.index[0]) +
         a * (1.0f - b) * at(ax.index[1], ay.index[0]) +
         (1.0f - a) * b * at(ax.index[0], ay.index[1]) + a * b * at(ax.index[1], ay.index[1]);
}

// The fetch's result as the type the kernel asked for: a scalar takes channel x, a vector type
// its first channels (members past the texture's channels are 0).
template <class T, bool scalar = std::is_arithmetic_v<T>>
struct Returned {
  using Element = T;
  static constexpr int count = 1;
};
template <class T>
struct Returned<T, false> {
  using Element = std::remove_reference_t<decltype(T{}.x)>;
  static constexpr int count = static_cast<int>(sizeof(T) / sizeof(Element));
};

template <class T>
T returned(const Texture& texture, const Texel& texel, const char* api, CallSite site) {
  using Element = typename Returned<T>::Element;
  constexpr bool float_element = std::is_floating_point_v<Element>;
  if (float_element != texture.float_result) {
    stop_launch("%s:%u: %s returns %s, but this texture returns %s (texels of kind %d, %d bits, "
                "read mode %d): the GPU does not define the result",
                site.file, site.line, api, float_element ? "floats" : "integers",
                texture.float_result ? "floats" : "integers", static_cast<int>(texture.image.desc.f),
                texture.image.desc.x, static_cast<int>(texture.desc.readMode));
  }
  Element elements[Returned<T>::count];
  for (int c = 0; c < Returned<T>::count; ++c) {
    elements[c] = c < 4 ? static_cast<Element>(texel.channel[c]) : Element{};
  }
  T value;
  std::memcpy(&value, elements, sizeof value);
  return value;
}

inline void expect_shape(const Texture& texture, const char* api, CallSite site, Shape a,
                         Shape b = Shape::linear) {
  const Shape shape = texture.image.shape;
  if (shape == a || (b != Shape::linear && shape == b)) return;
  stop_launch("%s:%u: %s reads a texture over %s, which it cannot read (it reads %s)", site.file,
              site.line, api, shape_name(shape), shape_name(a));
}

// A texel index out of tex1Dfetch's range reads 0 (the GPU's answer for linear memory).
template <class T>
T fetch_1d(cudaTextureObject_t handle, int x, CallSite site) {
  const Texture& texture = texture_at(handle, "tex1Dfetch", site);
  expect_shape(texture, "tex1Dfetch", site, Shape::linear);
  Texel texel{};
  if (x >= 0 && x < texture.image.width) texel = read_texel(texture, x, 0, 0);
  return returned<T>(texture, texel, "tex1Dfetch", site);
}

template <class T>
T fetch(cudaTextureObject_t handle, const char* api, CallSite site, int dims, float x, float y,
        float z, int layer, Shape shape, Shape also = Shape::linear) {
  const Texture& texture = texture_at(handle, api, site);
  expect_shape(texture, api, site, shape, also);
  if (dims == 2 && texture.one_float && texture.image.depth == 1) {
    return returned<T>(texture, Texel{{sample_2d_one_float(texture, x, y), 0, 0, 0}}, api, site);
  }
  const int slices = texture.image.depth;
  const int clamped = layer < 0 ? 0 : layer >= slices ? slices - 1 : layer;
  return returned<T>(texture, sample(texture, dims, x, y, z, clamped, false, api, site), api, site);
}

// The face and face coordinates (s, t) of direction (x, y, z), as the guide's cubemap table.
struct Face {
  int face;
  float s, t;
};
inline Face cubemap_face(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  int face;
  float sc, tc, ma;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    sc = x >= 0 ? -z : z;
    tc = -y;
    ma = ax;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    sc = x;
    tc = y >= 0 ? z : -z;
    ma = ay;
  } else {
    face = z >= 0 ? 4 : 5;
    sc = z >= 0 ? x : -x;
    tc = -y;
    ma = az;
  }
  if (ma == 0) return {face, 0.5f, 0.5f};
  return {face, (sc / ma + 1.0f) / 2.0f, (tc / ma + 1.0f) / 2.0f};
}

template <class T>
T fetch_cubemap(cudaTextureObject_t handle, const char* api, CallSite site, float x, float y,
                float z, int layer, Shape shape) {
  const Texture& texture = texture_at(handle, api, site);
  expect_shape(texture, api, site, shape);
  const Face f = cubemap_face(x, y, z);
  const int layers = texture.image.depth / 6;
  const int clamped = layer < 0 ? 0 : layer >= layers ? layers - 1 : layer;
  return returned<T>(texture,
                     sample(texture, 2, f.s, f.t, 0, 6 * clamped + f.face, true, api, site), api,
                     site);
}

}  // namespace warpsim::shim::textures

// ---- host

inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t* object,
                                           const cudaResourceDesc* resource,
                                           const cudaTextureDesc* desc,
                                           const cudaResourceViewDesc* view,
                                           const char* file = __builtin_FILE(),
                                           unsigned line = __builtin_LINE()) {
  namespace t = ::warpsim::shim::textures;
  if (object == nullptr || resource == nullptr || desc == nullptr) return cudaErrorInvalidValue;
  if (resource->resType == cudaResourceTypeMipmappedArray) {
    warpsim_not_simulated_at("a mipmapped CUDA array", "cudaCreateTextureObject", file, line);
  }
  if (view != nullptr) {
    warpsim_not_simulated_at("a texture's resource view", "cudaCreateTextureObject", file, line);
  }
  if (desc->sRGB != 0) {
    warpsim_not_simulated_at("an sRGB texture", "cudaCreateTextureObject", file, line);
  }
  t::Image image;
  const cudaError_t error = t::image_of(*resource, image);
  if (error != cudaSuccess) return error;
  const cudaChannelFormatDesc& format = image.desc;
  const bool float_result =
      format.f == cudaChannelFormatKindFloat ||
      (desc->readMode == cudaReadModeNormalizedFloat && format.x <= 16);
  const bool one_float = format.f == cudaChannelFormatKindFloat && format.x == 32 && format.y == 0;
  auto* texture = new t::Texture{image, *resource, *desc, float_result, one_float};
  const unsigned slot = t::g_textures.claim(texture, 1);
  if (slot != t::g_textures.kSlots) {
    if (image.array != nullptr) ::warpsim::shim::arrays::add_user(image.array);
    *object = slot;
    return cudaSuccess;
  }
  delete texture;
  return cudaErrorMemoryAllocation;  // more than kSlots texture objects at once
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t object) {
  namespace t = ::warpsim::shim::textures;
  t::Texture* texture = t::g_textures.take(object);
  if (texture == nullptr) return cudaErrorInvalidValue;
  if (texture->image.array != nullptr) ::warpsim::shim::arrays::drop_user(texture->image.array);
  delete texture;
  return cudaSuccess;
}
inline cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* resource,
                                                    cudaTextureObject_t object) {
  namespace t = ::warpsim::shim::textures;
  const t::Texture* texture = t::g_textures.at(object);
  if (resource == nullptr || texture == nullptr) return cudaErrorInvalidValue;
  *resource = texture->resource;
  return cudaSuccess;
}
inline cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* desc,
                                                   cudaTextureObject_t object) {
  namespace t = ::warpsim::shim::textures;
  const t::Texture* texture = t::g_textures.at(object);
  if (desc == nullptr || texture == nullptr) return cudaErrorInvalidValue;
  *desc = texture->desc;
  return cudaSuccess;
}

// ---- kernel side: T NAME(object, coordinates...) and void NAME(T*, object, coordinates...)

#define WARPSIM_TEXTURE_FETCH(NAME, PARAMETERS, CALL)                                          \
  template <class T>                                                                           \
  T NAME(cudaTextureObject_t object, WARPSIM_UNPAREN PARAMETERS,                              \
         ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {             \
    namespace t = ::warpsim::shim::textures;                                                   \
    return WARPSIM_UNPAREN CALL;                                                               \
  }                                                                                            \
  template <class T>                                                                           \
  void NAME(T* out, cudaTextureObject_t object, WARPSIM_UNPAREN PARAMETERS,                   \
            ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {          \
    namespace t = ::warpsim::shim::textures;                                                   \
    *out = WARPSIM_UNPAREN CALL;                                                               \
  }
#define WARPSIM_UNPAREN(...) __VA_ARGS__

WARPSIM_TEXTURE_FETCH(tex1Dfetch, (int x), (t::fetch_1d<T>(object, x, site)))
WARPSIM_TEXTURE_FETCH(tex1D, (float x),
                      (t::fetch<T>(object, "tex1D", site, 1, x, 0, 0, 0, t::Shape::array1d)))
WARPSIM_TEXTURE_FETCH(tex1DLod, (float x, float),
                      (t::fetch<T>(object, "tex1DLod", site, 1, x, 0, 0, 0, t::Shape::array1d)))
WARPSIM_TEXTURE_FETCH(tex2D, (float x, float y),
                      (t::fetch<T>(object, "tex2D", site, 2, x, y, 0, 0, t::Shape::array2d,
                                   t::Shape::pitch2d)))
WARPSIM_TEXTURE_FETCH(tex2DLod, (float x, float y, float),
                      (t::fetch<T>(object, "tex2DLod", site, 2, x, y, 0, 0, t::Shape::array2d,
                                   t::Shape::pitch2d)))
WARPSIM_TEXTURE_FETCH(tex3D, (float x, float y, float z),
                      (t::fetch<T>(object, "tex3D", site, 3, x, y, z, 0, t::Shape::array3d)))
WARPSIM_TEXTURE_FETCH(tex3DLod, (float x, float y, float z, float),
                      (t::fetch<T>(object, "tex3DLod", site, 3, x, y, z, 0, t::Shape::array3d)))
WARPSIM_TEXTURE_FETCH(tex1DLayered, (float x, int layer),
                      (t::fetch<T>(object, "tex1DLayered", site, 1, x, 0, 0, layer,
                                   t::Shape::layered1d)))
WARPSIM_TEXTURE_FETCH(tex1DLayeredLod, (float x, int layer, float),
                      (t::fetch<T>(object, "tex1DLayeredLod", site, 1, x, 0, 0, layer,
                                   t::Shape::layered1d)))
WARPSIM_TEXTURE_FETCH(tex2DLayered, (float x, float y, int layer),
                      (t::fetch<T>(object, "tex2DLayered", site, 2, x, y, 0, layer,
                                   t::Shape::layered2d)))
WARPSIM_TEXTURE_FETCH(tex2DLayeredLod, (float x, float y, int layer, float),
                      (t::fetch<T>(object, "tex2DLayeredLod", site, 2, x, y, 0, layer,
                                   t::Shape::layered2d)))
WARPSIM_TEXTURE_FETCH(texCubemap, (float x, float y, float z),
                      (t::fetch_cubemap<T>(object, "texCubemap", site, x, y, z, 0,
                                           t::Shape::cubemap)))
WARPSIM_TEXTURE_FETCH(texCubemapLod, (float x, float y, float z, float),
                      (t::fetch_cubemap<T>(object, "texCubemapLod", site, x, y, z, 0,
                                           t::Shape::cubemap)))
WARPSIM_TEXTURE_FETCH(texCubemapLayered, (float x, float y, float z, int layer),
                      (t::fetch_cubemap<T>(object, "texCubemapLayered", site, x, y, z, layer,
                                           t::Shape::cubemap_layered)))
#undef WARPSIM_TEXTURE_FETCH
#undef WARPSIM_UNPAREN

// Gathers (tex2Dgather) are not simulated: the launch stops at the fetch, naming it.
template <class T>
T tex2Dgather(cudaTextureObject_t, float, float, int = 0,
              ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {
  ::warpsim::shim::stop_launch("%s:%u: textures are not simulated: tex2Dgather (a gather of four "
                               "texels' components)",
                               site.file, site.line);
}
