// A tiled transpose that reads the tile before every thread has written its element.
__global__ void transpose16(const float* in, float* out) {
  __shared__ float tile[16][17];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 16 + x];  // expect: race
  out[y * 16 + x] = tile[x][y];  // expect: race
}
