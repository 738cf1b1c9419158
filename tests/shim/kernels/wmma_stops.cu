// <mma.h> compiles: a kernel that never reaches nvcuda::wmma runs; one that does stops at the
// call, naming it and its line.
#include <mma.h>
using namespace nvcuda;

__global__ void no_wmma(float* out) { out[threadIdx.x] = 2.0f * threadIdx.x; }

__global__ void uses_wmma(const float* storage, float* c) {
  const half* a = reinterpret_cast<const half*>(storage);
  const half* b = a + 256;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
