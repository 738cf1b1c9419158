// CUDA arrays, texture objects and surface objects in the shim, called directly (no launch):
// each expected value is the CUDA C++ Programming Guide's "Texture Fetching" formula worked by
// hand (linear filtering's weights rounded to 1/256, wrap and mirror on normalized coordinates,
// border colour, normalized-float reads, the cubemap face table); what the GPU leaves undefined
// stops (the launch, here an exception with the message).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace {

// A 2-D array of `width` x `height` floats holding `values`, row after row.
cudaArray_t float_array(int width, int height, const std::vector<float>& values,
                        unsigned flags = 0) {
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  REQUIRE(cudaMallocArray(&array, &desc, width, height, flags) == cudaSuccess);
  REQUIRE(cudaMemcpy2DToArray(array, 0, 0, values.data(), width * sizeof(float),
                              width * sizeof(float), height, cudaMemcpyHostToDevice) == cudaSuccess);
  return array;
}

cudaTextureObject_t texture_of(cudaArray_t array, cudaTextureFilterMode filter,
                               cudaTextureAddressMode mode, bool normalized,
                               cudaTextureReadMode read = cudaReadModeElementType) {
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc desc{};
  desc.filterMode = filter;
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = mode;
  desc.normalizedCoords = normalized;
  desc.readMode = read;
  cudaTextureObject_t texture = 0;
  REQUIRE(cudaCreateTextureObject(&texture, &resource, &desc, nullptr) == cudaSuccess);
  return texture;
}

// The weight the guide's 9-bit fixed point (8 fraction bits) keeps of frac(x).
float weight(float x) { return std::rint((x - std::floor(x)) * 256.0f) / 256.0f; }

template <class F>
std::string stop_message(F&& fetch) {
  try {
    fetch();
  } catch (const warpsim::shim::Stop& stop) {
    return stop.what();
  }
  return "(no stop)";
}

const std::vector<float> kRows = {1, 2, 4, 8, 16, 32, 64, 128};  // 4 x 2

}  // namespace

TEST_CASE("tex2D filters linearly with weights rounded to 1/256 (the guide's 2-D formula)") {
  cudaArray_t array = float_array(4, 2, kRows);
  const cudaTextureObject_t t = texture_of(array, cudaFilterModeLinear, cudaAddressModeClamp, false);
  // x = 1.3: xB = 0.8, i = 0, alpha = 205/256 (not 0.8); y = 0.75: yB = 0.25, j = 0, beta = 1/4.
  const float a = weight(0.8f), b = 0.25f;
  CHECK(a == 0.80078125f);
  const float expected = (1 - a) * (1 - b) * 1 + a * (1 - b) * 2 + (1 - a) * b * 16 + a * b * 32;
  CHECK(tex2D<float>(t, 1.3f, 0.75f) == expected);
  // At texel centres the weights are 0: the texel itself.
  CHECK(tex2D<float>(t, 2.5f, 1.5f) == 64.0f);
  // Clamp: past the edge, both neighbours are the edge texel.
  CHECK(tex2D<float>(t, -3.0f, 0.5f) == 1.0f);
  CHECK(tex2D<float>(t, 9.0f, 7.0f) == 128.0f);
  float out = 0;
  tex2D(&out, t, 0.5f, 1.5f);  // the pointer form
  CHECK(out == 16.0f);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaFreeArray(array) == cudaSuccess);
}

TEST_CASE("wrap and mirror act on normalized coordinates; without them they clamp") {
  cudaArray_t array = float_array(4, 2, kRows);
  SUBCASE("wrap") {
    const cudaTextureObject_t point = texture_of(array, cudaFilterModePoint, cudaAddressModeWrap, true);
    CHECK(tex2D<float>(point, 1.1f, 0.25f) == 1.0f);   // frac 0.1: 0.4 -> texel 0
    CHECK(tex2D<float>(point, -0.1f, 0.25f) == 8.0f);  // frac 0.9: 3.6 -> texel 3
    CHECK(tex2D<float>(point, 0.6f, -0.25f) == 64.0f);  // y frac 0.75: row 1
    const cudaTextureObject_t linear = texture_of(array, cudaFilterModeLinear, cudaAddressModeWrap, true);
    // x = 0: xB = -0.5, texels -1 (wraps to 3) and 0, alpha 1/2; y = 0.25: row 0 only.
    CHECK(tex2D<float>(linear, 0.0f, 0.25f) == 0.5f * 8 + 0.5f * 1);
    cudaDestroyTextureObject(point);
    cudaDestroyTextureObject(linear);
  }
  SUBCASE("mirror") {
    const cudaTextureObject_t point = texture_of(array, cudaFilterModePoint, cudaAddressModeMirror, true);
    CHECK(tex2D<float>(point, 1.1f, 0.25f) == 8.0f);   // floor 1 odd: 1 - 0.1 = 0.9 -> texel 3
    CHECK(tex2D<float>(point, -0.1f, 0.25f) == 1.0f);  // floor -1 odd: 1 - 0.9 = 0.1 -> texel 0
    CHECK(tex2D<float>(point, 2.3f, 0.25f) == 2.0f);   // floor 2 even: 0.3 -> 1.2 -> texel 1
    const cudaTextureObject_t linear = texture_of(array, cudaFilterModeLinear, cudaAddressModeMirror, true);
    // x = 0: texels -1 (mirrored to 0) and 0.
    CHECK(tex2D<float>(linear, 0.0f, 0.25f) == 1.0f);
    cudaDestroyTextureObject(point);
    cudaDestroyTextureObject(linear);
  }
  SUBCASE("unnormalized coordinates clamp under wrap") {
    const cudaTextureObject_t point = texture_of(array, cudaFilterModePoint, cudaAddressModeWrap, false);
    CHECK(tex2D<float>(point, 10.0f, 0.5f) == 8.0f);
    CHECK(tex2D<float>(point, -10.0f, 5.0f) == 16.0f);
    cudaDestroyTextureObject(point);
  }
  cudaFreeArray(array);
}

TEST_CASE("border mode reads the border colour outside, also as one of the filtered texels") {
  cudaArray_t array = float_array(4, 2, kRows);
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeBorder;
  desc.borderColor[0] = 100.0f;
  cudaTextureObject_t point = 0, linear = 0;
  REQUIRE(cudaCreateTextureObject(&point, &resource, &desc, nullptr) == cudaSuccess);
  desc.filterMode = cudaFilterModeLinear;
  REQUIRE(cudaCreateTextureObject(&linear, &resource, &desc, nullptr) == cudaSuccess);
  CHECK(tex2D<float>(point, -0.5f, 0.5f) == 100.0f);
  CHECK(tex2D<float>(point, 4.0f, 0.5f) == 100.0f);
  CHECK(tex2D<float>(point, 3.9f, 1.9f) == 128.0f);
  // x = 0.25: xB = -0.25, texels -1 (border) and 0, alpha = 3/4.
  CHECK(tex2D<float>(linear, 0.25f, 0.5f) == 0.25f * 100 + 0.75f * 1);
  cudaDestroyTextureObject(point);
  cudaDestroyTextureObject(linear);
  cudaFreeArray(array);
}

TEST_CASE("8- and 16-bit integers read as normalized floats; integers read as themselves") {
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  CHECK(desc.x == 8);
  CHECK(desc.w == 8);
  CHECK(desc.f == cudaChannelFormatKindUnsigned);
  cudaArray_t array = nullptr;
  REQUIRE(cudaMallocArray(&array, &desc, 2, 1) == cudaSuccess);
  const unsigned char texels[8] = {255, 51, 0, 128, 1, 2, 3, 4};
  REQUIRE(cudaMemcpyToArray(array, 0, 0, texels, sizeof texels, cudaMemcpyHostToDevice) == cudaSuccess);
  const cudaTextureObject_t normalized = texture_of(array, cudaFilterModePoint, cudaAddressModeClamp,
                                                    false, cudaReadModeNormalizedFloat);
  const float4 v = tex2D<float4>(normalized, 0.5f, 0.5f);
  CHECK(v.x == 1.0f);
  CHECK(v.y == 51.0f / 255.0f);
  CHECK(v.z == 0.0f);
  CHECK(v.w == 128.0f / 255.0f);
  const cudaTextureObject_t raw = texture_of(array, cudaFilterModePoint, cudaAddressModeClamp, false);
  const uchar4 u = tex2D<uchar4>(raw, 1.5f, 0.5f);
  CHECK(u.x == 1);
  CHECK(u.w == 4);
  CHECK(stop_message([&] { tex2D<float>(raw, 0.5f, 0.5f); })
            .find("tex2D returns floats, but this texture returns integers") != std::string::npos);
  cudaDestroyTextureObject(normalized);
  cudaDestroyTextureObject(raw);
  cudaFreeArray(array);

  const cudaChannelFormatDesc signed_desc = cudaCreateChannelDesc<signed char>();
  REQUIRE(cudaMallocArray(&array, &signed_desc, 3, 1) == cudaSuccess);
  const signed char s[3] = {-128, -127, 127};
  REQUIRE(cudaMemcpyToArray(array, 0, 0, s, 3, cudaMemcpyHostToDevice) == cudaSuccess);
  const cudaTextureObject_t t = texture_of(array, cudaFilterModePoint, cudaAddressModeClamp, false,
                                           cudaReadModeNormalizedFloat);
  CHECK(tex2D<float>(t, 0.5f, 0.5f) == -1.0f);  // -128 / 127, held at -1
  CHECK(tex2D<float>(t, 1.5f, 0.5f) == -1.0f);
  CHECK(tex2D<float>(t, 2.5f, 0.5f) == 1.0f);
  cudaDestroyTextureObject(t);
  cudaFreeArray(array);
}

TEST_CASE("tex1Dfetch reads linear memory (0 outside), tex2D pitched memory") {
  std::vector<int> values = {5, 6, 7, 8};
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = values.data();
  resource.res.linear.desc = cudaCreateChannelDesc<int>();
  resource.res.linear.sizeInBytes = values.size() * sizeof(int);
  cudaTextureDesc desc{};
  cudaTextureObject_t linear = 0;
  REQUIRE(cudaCreateTextureObject(&linear, &resource, &desc, nullptr) == cudaSuccess);
  CHECK(tex1Dfetch<int>(linear, 2) == 7);
  CHECK(tex1Dfetch<int>(linear, 4) == 0);
  CHECK(tex1Dfetch<int>(linear, -1) == 0);
  CHECK(stop_message([&] { tex2D<int>(linear, 0.5f, 0.5f); })
            .find("tex2D reads a texture over linear memory") != std::string::npos);
  cudaDestroyTextureObject(linear);
  CHECK(stop_message([&] { tex1Dfetch<int>(linear, 0); })
            .find("which no cudaCreateTextureObject made") != std::string::npos);

  // 3 x 2 floats in rows 16 bytes apart.
  std::vector<float> pitched = {1, 2, 3, -1, 4, 5, 6, -1};
  resource = cudaResourceDesc{};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = pitched.data();
  resource.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  resource.res.pitch2D.width = 3;
  resource.res.pitch2D.height = 2;
  resource.res.pitch2D.pitchInBytes = 16;
  desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeClamp;
  cudaTextureObject_t t = 0;
  REQUIRE(cudaCreateTextureObject(&t, &resource, &desc, nullptr) == cudaSuccess);
  CHECK(tex2D<float>(t, 2.5f, 1.5f) == 6.0f);
  CHECK(tex2D<float>(t, 7.0f, 0.0f) == 3.0f);  // clamped to the width, not the pitch
  cudaDestroyTextureObject(t);
}

TEST_CASE("layered and cubemap arrays: cudaMemcpy3D in, the layer or the face read") {
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  std::vector<float> texels(4 * 4 * 6);
  for (std::size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<float>(i);
  cudaMemcpy3DParms copy{};
  copy.srcPtr = make_cudaPitchedPtr(texels.data(), 4 * sizeof(float), 4, 4);
  copy.extent = make_cudaExtent(4, 4, 6);
  copy.kind = cudaMemcpyHostToDevice;

  cudaArray_t layered = nullptr;
  REQUIRE(cudaMalloc3DArray(&layered, &desc, make_cudaExtent(4, 4, 6), cudaArrayLayered) == cudaSuccess);
  copy.dstArray = layered;
  REQUIRE(cudaMemcpy3D(&copy) == cudaSuccess);
  cudaExtent extent{};
  unsigned flags = 0;
  REQUIRE(cudaArrayGetInfo(nullptr, &extent, &flags, layered) == cudaSuccess);
  CHECK(extent.depth == 6);
  CHECK(flags == cudaArrayLayered);
  const cudaTextureObject_t t = texture_of(layered, cudaFilterModePoint, cudaAddressModeClamp, false);
  CHECK(tex2DLayered<float>(t, 2.5f, 1.5f, 3) == 3 * 16 + 1 * 4 + 2);
  {  // the general filter (tex2D of one float takes a shorter path): layer 2, x = 1.3, y = 0.75
    const cudaTextureObject_t linear =
        texture_of(layered, cudaFilterModeLinear, cudaAddressModeClamp, false);
    const float a = weight(0.8f), b = 0.25f;
    const float expected = (1 - a) * (1 - b) * 32 + a * (1 - b) * 33 + (1 - a) * b * 36 + a * b * 37;
    CHECK(tex2DLayered<float>(linear, 1.3f, 0.75f, 2) == expected);
    CHECK(tex2DLayered<float>(linear, 1.3f, 0.75f, 9) == expected + 3 * 16);  // layer clamped to 5
    cudaDestroyTextureObject(linear);
  }
  CHECK(stop_message([&] { tex2D<float>(t, 0.5f, 0.5f); })
            .find("tex2D reads a texture over a layered 2-D CUDA array") != std::string::npos);
  cudaDestroyTextureObject(t);
  cudaFreeArray(layered);

  cudaArray_t cube = nullptr;
  REQUIRE(cudaMalloc3DArray(&cube, &desc, make_cudaExtent(4, 4, 6), cudaArrayCubemap) == cudaSuccess);
  copy.dstArray = cube;
  REQUIRE(cudaMemcpy3D(&copy) == cudaSuccess);
  const cudaTextureObject_t c = texture_of(cube, cudaFilterModePoint, cudaAddressModeClamp, true);
  // (1, 0.2, -0.3): |x| largest, x >= 0: face 0, sc = -z = 0.3, tc = -y = -0.2, ma = 1;
  // s = 0.65 -> texel 2, t = 0.4 -> row 1.
  CHECK(texCubemap<float>(c, 1.0f, 0.2f, -0.3f) == 0 * 16 + 1 * 4 + 2);
  // (0.5, -2, 1): face 3 (y < 0), sc = x = 0.5, tc = -z = -1, ma = 2: s = 0.625 -> 2, t = 0.25 -> 1.
  CHECK(texCubemap<float>(c, 0.5f, -2.0f, 1.0f) == 3 * 16 + 1 * 4 + 2);
  // (0.1, 0.2, -0.8): face 5 (z < 0), sc = -x = -0.1, tc = -y = -0.2: s = 0.4375 -> 1, t = 0.375 -> 1.
  CHECK(texCubemap<float>(c, 0.1f, 0.2f, -0.8f) == 5 * 16 + 1 * 4 + 1);
  cudaDestroyTextureObject(c);
  cudaFreeArray(cube);
}

TEST_CASE("surfaces: x counts bytes; trap stops, clamp moves inside, zero drops the write") {
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  REQUIRE(cudaMallocArray(&array, &desc, 4, 2) == cudaSuccess);
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &resource) == cudaErrorInvalidValue);  // no load/store flag
  cudaFreeArray(array);
  REQUIRE(cudaMallocArray(&array, &desc, 4, 2, cudaArraySurfaceLoadStore) == cudaSuccess);
  resource.res.array.array = array;
  REQUIRE(cudaCreateSurfaceObject(&s, &resource) == cudaSuccess);
  surf2Dwrite(7.5f, s, 2 * 4, 1);
  CHECK(surf2Dread<float>(s, 8, 1) == 7.5f);
  surf2Dwrite(9.0f, s, 40, 0, cudaBoundaryModeClamp);  // to texel 3 of row 0
  surf2Dwrite(5.0f, s, -4, 1, cudaBoundaryModeZero);   // dropped
  CHECK(surf2Dread<float>(s, -4, 0, cudaBoundaryModeZero) == 0.0f);
  float rows[8] = {};
  REQUIRE(cudaMemcpy2DFromArray(rows, 16, array, 0, 0, 16, 2, cudaMemcpyDeviceToHost) == cudaSuccess);
  const float expected[8] = {0, 0, 0, 9, 0, 0, 7.5f, 0};
  CHECK(std::memcmp(rows, expected, sizeof rows) == 0);
  CHECK(stop_message([&] { surf2Dwrite(1.0f, s, 16, 0); })
            .find("surf2Dwrite at (x = 16 bytes, y = 0, slice 0) is outside the surface") !=
        std::string::npos);
  CHECK(stop_message([&] { surf2Dwrite(1.0f, s, 2, 0); }).find("must be a multiple of 4") !=
        std::string::npos);
  // A texture over the same array sees the write.
  const cudaTextureObject_t t = texture_of(array, cudaFilterModePoint, cudaAddressModeClamp, false);
  CHECK(tex2D<float>(t, 2.5f, 1.5f) == 7.5f);
  CHECK(cudaDestroySurfaceObject(s) == cudaSuccess);
  CHECK(cudaFreeArray(array) == cudaSuccess);  // the texture keeps its texels
  CHECK(tex2D<float>(t, 3.5f, 0.5f) == 9.0f);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaFreeArray(array) == cudaErrorInvalidResourceHandle);
}

TEST_CASE("linear filtering of integers, and channel formats no array holds, are refused") {
  const cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &three, 4, 4) == cudaErrorInvalidChannelDescriptor);
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  REQUIRE(cudaMallocArray(&array, &desc, 4, 4) == cudaSuccess);
  const cudaTextureObject_t t = texture_of(array, cudaFilterModeLinear, cudaAddressModeClamp, false);
  CHECK(stop_message([&] { tex2D<int>(t, 0.5f, 0.5f); })
            .find("filters linearly a texture that returns integers") != std::string::npos);
  cudaDestroyTextureObject(t);
  cudaFreeArray(array);
}
