// Surface objects: cudaCreateSurfaceObject over a CUDA array made with cudaArraySurfaceLoadStore,
// and the kernel's reads and writes (surf1D, surf2D, surf3D, surf1DLayered, surf2DLayered,
// surfCubemap, surfCubemapLayered; read and write, the value and pointer forms). As on the GPU,
// x counts bytes and the access moves sizeof(T) bytes unformatted; y, z, the layer and the face
// count rows, slices, layers and faces. Out of range, the boundary mode decides:
// cudaBoundaryModeTrap (the default) stops the launch at that line, as the GPU's kernel faults;
// cudaBoundaryModeClamp moves the access to the nearest place inside; cudaBoundaryModeZero
// reads 0 and drops a write. An x that is not a multiple of the access size (or of the texel
// size, if smaller) stops the launch too.
#pragma once

#include <cstddef>
#include <cstring>

#include "warpsim/launch_stop.hpp"
#include "warpsim/texture_objects.hpp"

namespace warpsim::shim::surfaces {

using ::warpsim::device::CallSite;
using ::warpsim::shim::textures::Image;
using ::warpsim::shim::textures::Shape;

struct Surface {
  Image image;
  cudaResourceDesc resource;
};

inline ObjectSlots<Surface> g_surfaces;  // a surface object's handle is its slot

inline long long bounded(long long value, long long size, bool& outside) {
  if (value < 0 || value >= size) {
    outside = true;
    return value < 0 ? 0 : size - 1;
  }
  return value;
}

// Where the access of `bytes` bytes at (x bytes, y, slice) goes; null when cudaBoundaryModeZero
// leaves it out.
inline unsigned char* place(cudaSurfaceObject_t handle, const char* api, CallSite site,
                            Shape shape, std::size_t bytes, int x, int y, int slice,
                            cudaSurfaceBoundaryMode mode) {
  Surface* surface = g_surfaces.at(handle);
  if (surface == nullptr) {
    stop_launch("%s:%u: %s uses surface object %llu, which no cudaCreateSurfaceObject made (or "
                "cudaDestroySurfaceObject destroyed)",
                site.file, site.line, api, static_cast<unsigned long long>(handle));
  }
  const Image& image = surface->image;
  if (image.shape != shape) {
    stop_launch("%s:%u: %s uses a surface over %s (it needs %s)", site.file, site.line, api,
                textures::shape_name(image.shape), textures::shape_name(shape));
  }
  const std::size_t unit = bytes < image.texel_bytes ? bytes : image.texel_bytes;
  if (x % static_cast<long long>(unit) != 0) {
    stop_launch("%s:%u: %s at x = %d: x counts bytes and must be a multiple of %zu (the access's "
                "size, or the texel's if smaller)",
                site.file, site.line, api, x, unit);
  }
  const long long row = static_cast<long long>(image.width * image.texel_bytes);
  bool outside = false;
  long long at_x = x;
  if (x < 0 || x + static_cast<long long>(bytes) > row) {
    outside = true;
    at_x = x < 0 ? 0 : row - static_cast<long long>(bytes);
    if (at_x < 0) at_x = 0;
  }
  const long long at_y = bounded(y, image.height, outside);
  const long long at_slice = bounded(slice, image.depth, outside);
  if (outside) {
    if (mode == cudaBoundaryModeZero) return nullptr;
    if (mode != cudaBoundaryModeClamp) {
      stop_launch("%s:%u: %s at (x = %d bytes, y = %d, slice %d) is outside the surface (%d "
                  "texels of %zu bytes x %d rows x %d slices) with cudaBoundaryModeTrap: the "
                  "GPU's kernel faults there",
                  site.file, site.line, api, x, y, slice, image.width, image.texel_bytes,
                  image.height, image.depth);
    }
  }
  return image.bytes + static_cast<std::size_t>(at_slice) * image.slice +
         static_cast<std::size_t>(at_y) * image.pitch + static_cast<std::size_t>(at_x);
}

template <class T>
T read(cudaSurfaceObject_t handle, const char* api, CallSite site, Shape shape, int x, int y,
       int slice, cudaSurfaceBoundaryMode mode) {
  T value{};
  if (const unsigned char* at = place(handle, api, site, shape, sizeof(T), x, y, slice, mode)) {
    std::memcpy(&value, at, sizeof(T));
  }
  return value;
}

template <class T>
void write(const T& value, cudaSurfaceObject_t handle, const char* api, CallSite site, Shape shape,
           int x, int y, int slice, cudaSurfaceBoundaryMode mode) {
  if (unsigned char* at = place(handle, api, site, shape, sizeof(T), x, y, slice, mode)) {
    std::memcpy(at, &value, sizeof(T));
  }
}

}  // namespace warpsim::shim::surfaces

// ---- host

inline cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* object,
                                           const cudaResourceDesc* resource) {
  namespace s = ::warpsim::shim::surfaces;
  if (object == nullptr || resource == nullptr) return cudaErrorInvalidValue;
  if (resource->resType != cudaResourceTypeArray) return cudaErrorInvalidValue;
  ::warpsim::shim::textures::Image image;
  const cudaError_t error = ::warpsim::shim::textures::image_of(*resource, image);
  if (error != cudaSuccess) return error;
  if ((image.array->flags & cudaArraySurfaceLoadStore) == 0) return cudaErrorInvalidValue;
  auto* surface = new s::Surface{image, *resource};
  const unsigned slot = s::g_surfaces.claim(surface, 1);
  if (slot != s::g_surfaces.kSlots) {
    ::warpsim::shim::arrays::add_user(image.array);
    *object = slot;
    return cudaSuccess;
  }
  delete surface;
  return cudaErrorMemoryAllocation;  // more than kSlots surface objects at once
}
inline cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t object) {
  namespace s = ::warpsim::shim::surfaces;
  s::Surface* surface = s::g_surfaces.take(object);
  if (surface == nullptr) return cudaErrorInvalidValue;
  ::warpsim::shim::arrays::drop_user(surface->image.array);
  delete surface;
  return cudaSuccess;
}
inline cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* resource,
                                                    cudaSurfaceObject_t object) {
  namespace s = ::warpsim::shim::surfaces;
  const s::Surface* surface = s::g_surfaces.at(object);
  if (resource == nullptr || surface == nullptr) return cudaErrorInvalidValue;
  *resource = surface->resource;
  return cudaSuccess;
}

// ---- kernel side

#define WARPSIM_UNPAREN(...) __VA_ARGS__
#define WARPSIM_SURFACE(NAME, SHAPE, PARAMETERS, Y, SLICE)                                     \
  template <class T>                                                                           \
  T NAME##read(cudaSurfaceObject_t object, int x, WARPSIM_UNPAREN PARAMETERS                   \
                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,                        \
               ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {       \
    return ::warpsim::shim::surfaces::read<T>(object, #NAME "read", site,                      \
                                              ::warpsim::shim::textures::Shape::SHAPE, x, Y,   \
                                              SLICE, mode);                                    \
  }                                                                                            \
  template <class T>                                                                           \
  void NAME##read(T* out, cudaSurfaceObject_t object, int x, WARPSIM_UNPAREN PARAMETERS        \
                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,                     \
                  ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {    \
    *out = ::warpsim::shim::surfaces::read<T>(object, #NAME "read", site,                      \
                                              ::warpsim::shim::textures::Shape::SHAPE, x, Y,   \
                                              SLICE, mode);                                    \
  }                                                                                            \
  template <class T>                                                                           \
  void NAME##write(T value, cudaSurfaceObject_t object, int x, WARPSIM_UNPAREN PARAMETERS      \
                       cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,                    \
                   ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) {   \
    ::warpsim::shim::surfaces::write<T>(value, object, #NAME "write", site,                    \
                                        ::warpsim::shim::textures::Shape::SHAPE, x, Y, SLICE,  \
                                        mode);                                                 \
  }

WARPSIM_SURFACE(surf1D, array1d, (), 0, 0)
WARPSIM_SURFACE(surf2D, array2d, (int y, ), y, 0)
WARPSIM_SURFACE(surf3D, array3d, (int y, int z, ), y, z)
WARPSIM_SURFACE(surf1DLayered, layered1d, (int layer, ), 0, layer)
WARPSIM_SURFACE(surf2DLayered, layered2d, (int y, int layer, ), y, layer)
WARPSIM_SURFACE(surfCubemap, cubemap, (int y, int face, ), y, face)
WARPSIM_SURFACE(surfCubemapLayered, cubemap_layered, (int y, int layer_face, ), y, layer_face)
#undef WARPSIM_SURFACE
#undef WARPSIM_UNPAREN
