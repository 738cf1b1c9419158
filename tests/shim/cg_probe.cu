// Runs the kernels of cg_kernels.cuh with the inputs of cooperative_groups_test.cpp and prints
// every output array, one line each, so a GPU run and a simulator run can be diffed:
//   GPU:       nvcc -std=c++20 -arch=sm_90 -o cg_probe_gpu tests/shim/cg_probe.cu
//   simulator: g++ -std=c++20 -x c++ -include warpsim/cuda_shim.hpp -Ibuild/release/include -Isim/shim
//              tests/shim/cg_probe.cu -Lbuild/sim -lwarpsim -o cg_probe_sim
// Lines marked UB hold results CUDA leaves undefined (H100 and simulator may differ there).
// Not part of the test build.
#include <cstdio>
#include <string>
#include <vector>

#ifdef __CUDACC_WARPSIM__  // the shim defines __CUDACC__ too, as nvcc does
#include "warpsim/launch.hpp"
#endif

#include "cg_kernels.cuh"

#define COMMA ,

#ifndef __CUDACC_WARPSIM__
template <class T>
struct Buffer {
  std::vector<T> host;
  T* device = nullptr;
  explicit Buffer(std::vector<T> init) : host(std::move(init)) {
    cudaMalloc(&device, host.size() * sizeof(T));
    cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~Buffer() { cudaFree(device); }
  T* ptr() { return device; }
  const std::vector<T>& fetch() {
    cudaMemcpy(host.data(), device, host.size() * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }
};
#define RUN(grid_size, block_size, kernel, ...)                                              \
  do {                                                                                       \
    kernel<<<grid_size, block_size>>>(__VA_ARGS__);                                          \
    if (cudaDeviceSynchronize() != cudaSuccess) std::printf("launch failed: " #kernel "\n"); \
  } while (0)
#else
template <class T>
struct Buffer {
  std::vector<T> host;
  explicit Buffer(std::vector<T> init) : host(std::move(init)) {}
  T* ptr() { return host.data(); }
  const std::vector<T>& fetch() { return host; }
};
#define RUN(grid_size, block_size, kernel, ...)                                                    \
  do {                                                                                             \
    warpsim::LaunchOptions o;                                                                      \
    o.grid = {grid_size};                                                                          \
    o.block = {block_size};                                                                        \
    const auto r = warpsim::launch(o, [&] { kernel(__VA_ARGS__); });                               \
    if (r.status != warpsim::LaunchStatus::completed) std::printf("launch failed: " #kernel "\n"); \
  } while (0)
#endif

template <class T>
std::vector<T> filled(std::size_t n, T v) {
  return std::vector<T>(n, v);
}

void print(const char* name, const std::vector<int>& v) {
  std::printf("%s:", name);
  for (int x : v) std::printf(" %d", x);
  std::printf("\n");
}
void print(const char* name, const std::vector<unsigned>& v) {
  std::printf("%s:", name);
  for (unsigned x : v) std::printf(" %x", x);
  std::printf("\n");
}
void print(const char* name, const std::vector<float>& v) {
  std::printf("%s:", name);
  for (float x : v) std::printf(" %.9g", static_cast<double>(x));
  std::printf("\n");
}
void print(const char* name, const std::vector<GroupNumbers>& v) {
  std::printf("%s:", name);
  for (const auto& g : v) std::printf(" %u/%u/%u/%u", g.rank, g.size, g.meta_rank, g.meta_size);
  std::printf("\n");
}

int main() {
  {
    Buffer<int> shfl20(filled(32, -1)), up1(filled(32, -1)), down1(filled(32, -1));
    Buffer<unsigned> ballot4(filled(32u, 0u)), rank(filled(32u, 0u));
    RUN(1, 32, coalesced_even_lanes, shfl20.ptr(), up1.ptr(), down1.ptr(), ballot4.ptr(),
        rank.ptr());
    print("case44.shfl20 UB", shfl20.fetch());
    print("case44.up1", up1.fetch());
    print("case44.down1", down1.fetch());
    print("case44.ballot4", ballot4.fetch());
    print("case44.rank", rank.fetch());
  }
  {
    Buffer<int> idx9(filled(32, 0)), idxm1(filled(32, 0)), xor8(filled(32, -1));
    Buffer<unsigned> ballot(filled(32u, 0u));
    RUN(1, 32, tile8_edges, idx9.ptr(), idxm1.ptr(), ballot.ptr(), xor8.ptr());
    print("case45.idx9", idx9.fetch());
    print("case45.idx_minus1", idxm1.fetch());
    print("case45.ballot_odd", ballot.fetch());
    print("case45.xor8 UB(odd tiles)", xor8.fetch());
  }
  {
    std::vector<int> in(64);
    std::vector<float> inf(64);
    for (int i = 0; i < 64; ++i) in[i] = i % 7 - 2, inf[i] = static_cast<float>(i % 7 - 2);
    Buffer<int> bi(in), oi(filled(64, 0));
    Buffer<float> bf(inf), of(filled(64, 0.0f));
    RUN(1, 64, tile_sum<int COMMA 16>, bi.ptr(), oi.ptr());
    RUN(1, 64, tile_sum<float COMMA 16>, bf.ptr(), of.ptr());
    print("tile_sum.int", oi.fetch());
    print("tile_sum.float", of.fetch());
  }
  {
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i) in[i] = (i * 13) % 32 - 10;
    Buffer<int> b(in), mn4(filled(32, 0)), mx4(filled(32, 0)), mn32(filled(32, 0));
    Buffer<unsigned> or32(filled(32u, 0u));
    RUN(1, 32, tile_min_max, b.ptr(), mn4.ptr(), mx4.ptr(), mn32.ptr(), or32.ptr());
    print("min4", mn4.fetch());
    print("max4", mx4.fetch());
    print("min32", mn32.fetch());
    print("or32", or32.fetch());
  }
  {
    std::vector<int> in(3 * 128);
    for (int i = 0; i < 3 * 128; ++i) in[i] = i + 1;
    Buffer<int> b(in), out(filled(3, 0));
    RUN(3, 128, block_sum, b.ptr(), out.ptr());
    print("block_sum", out.fetch());
  }
  {
    Buffer<GroupNumbers> t16(filled(64, GroupNumbers{})), t4(filled(64, GroupNumbers{})),
        d8(filled(64, GroupNumbers{})), self(filled(64, GroupNumbers{}));
    RUN(1, 64, group_numbers, t16.ptr(), t4.ptr(), d8.ptr(), self.ptr());
    print("numbers.tile16", t16.fetch());
    print("numbers.tile4_of_16", t4.fetch());
    print("numbers.dynamic8", d8.fetch());
    print("numbers.this_thread", self.fetch());
  }
  {
    Buffer<unsigned> size(filled(48u, 0u)), rank(filled(48u, 0u));
    RUN(1, 48, partial_last_tile, size.ptr(), rank.ptr());
    print("partial.size", size.fetch());
    print("partial.rank", rank.fetch());
  }
  {
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i) in[i] = i % 8 + 1;
    Buffer<int> b(in), incl(filled(32, 0)), excl(filled(32, 0));
    Buffer<float> oi(filled(32, -1.0f)), oem(filled(32, -1.0f)), os(filled(32, -1.0f));
    RUN(1, 32, scans, b.ptr(), incl.ptr(), excl.ptr(), oi.ptr(), oem.ptr(), os.ptr());
    print("scan.incl8", incl.fetch());
    print("scan.excl8", excl.fetch());
    print("scan.odd_incl", oi.fetch());
    print("scan.odd_excl_max", oem.fetch());
    print("scan.odd_sum", os.fetch());
  }
  {
    Buffer<Triple> out(filled(32, Triple{}));
    RUN(1, 32, struct_shuffle, out.ptr());
    std::vector<int> a, c;
    std::vector<float> bb;
    for (const auto& t : out.fetch()) a.push_back(t.a), bb.push_back(t.b), c.push_back(t.c);
    print("struct.a", a);
    print("struct.b", bb);
    print("struct.c", c);
  }
  {
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i) in[i] = i < 8 ? i / 2 : (i < 16 ? 7 : i % 5);
    Buffer<int> b(in), pred(filled(32, -1)), any(filled(32, -1)), all(filled(32, -1));
    Buffer<unsigned> ma(filled(32u, 0u)), ml(filled(32u, 0u));
    RUN(1, 32, tile_match_vote, b.ptr(), ma.ptr(), ml.ptr(), pred.ptr(), any.ptr(), all.ptr());
    print("match.any", ma.fetch());
    print("match.all", ml.fetch());
    print("match.all_pred", pred.fetch());
    print("vote.any", any.fetch());
    print("vote.all", all.fetch());
  }
  {
    Buffer<unsigned> size(filled(32u, 0u)), rank(filled(32u, 0u)), mr(filled(32u, 0u)),
        ms(filled(32u, 0u)), odd(filled(32u, 0u));
    RUN(1, 32, label_groups, size.ptr(), rank.ptr(), mr.ptr(), ms.ptr(), odd.ptr());
    print("label.size", size.fetch());
    print("label.rank", rank.fetch());
    print("label.meta_rank", mr.fetch());
    print("label.meta_size", ms.fetch());
    print("binary.odd_size", odd.fetch());
  }
  return 0;
}
