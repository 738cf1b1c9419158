// The tiled transpose with its barrier.
__global__ void transpose16(const float* in, float* out) {
  __shared__ float tile[16][17];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 16 + x];
  __syncthreads();
  out[y * 16 + x] = tile[x][y];
}
