// Address spaces, cache-hinted loads and stores, clocks: what each lane sees.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__shared__ int file_scope_shared[4];

// out[8 * t + j] for lane t:
//   0..4: __isShared of a static __shared__ element, a dynamic shared element, a file-scope
//         __shared__ element, a local variable, an element of the input buffer (1 1 1 0 0)
//   5: 1 if the shared window maps the static and the dynamic element back to themselves
//   6: __ldg + __ldcs + __ldcg + __ldca + __ldlu + __ldcv of in[t] (6 * in[t])
//   7: 1 if clock64() and clock() did not go backwards
__global__ void memory_intrinsics(const int* in, int* out) {
  __shared__ float tile[32];
  __shared__ cg::block_tile_memory<256> scratch;
  extern __shared__ float dynamic[];
  cg::thread_block block = cg::this_thread_block(scratch);
  const int t = threadIdx.x;
  int local = t;
  tile[t] = 1.0f;
  dynamic[t] = 2.0f;
  int* o = out + 8 * t;
  o[0] = static_cast<int>(__isShared(&tile[t]));
  o[1] = static_cast<int>(__isShared(&dynamic[t]));
  o[2] = static_cast<int>(__isShared(&file_scope_shared[t % 4]));
  o[3] = static_cast<int>(__isShared(&local));
  o[4] = static_cast<int>(__isShared(in + t));
  o[5] = __cvta_shared_to_generic(__cvta_generic_to_shared(&tile[t])) == &tile[t] &&
         __cvta_shared_to_generic(__cvta_generic_to_shared(&dynamic[t])) == &dynamic[t];
  o[6] = __ldg(in + t) + __ldcs(in + t) + __ldcg(in + t) + __ldca(in + t) + __ldlu(in + t) +
         __ldcv(in + t);
  const long long before = clock64();
  const clock_t c0 = clock();
  __nanosleep(100);
  block.sync();
  __stwt(o + 7, clock64() > before && clock() >= c0 ? 1 : 0);
}
