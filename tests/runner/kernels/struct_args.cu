// Kernels that take structs by value (tests/runner/struct_args_test.cpp; --gpu on a device:
// tests/gpu/run_on_gpu_device_test.cpp and scripts in docs).

struct Params {
  int n;
  float scale;
  const float* in;
};

// out[i] = in[i] * scale for i < n.
__global__ void scale_by_params(Params p, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) out[i] = p.in[i] * p.scale;
}

// Padding: char then double (7 bytes of padding), a pointer to write through, a short at the end
// (6 bytes of tail padding).
struct Mixed {
  char c;
  double d;
  int* out;
  short s;
};

// out[i] = c * 1000 + d * 10 + s + i, every field read, written through the struct's pointer.
__global__ void write_through_mixed(Mixed m) {
  const int i = threadIdx.x;
  m.out[i] = m.c * 1000 + static_cast<int>(m.d * 10) + m.s + i;
}

// int, pointer, short: 4 bytes of padding after the int, 6 of tail padding.
struct IntPointerShort {
  int i;
  unsigned long long* sum;
  short s;
};

// Each lane adds its own word to the struct's pointee; lane 0 also records i and s.
__global__ void int_pointer_short(IntPointerShort v, unsigned long long* seen) {
  const int lane = threadIdx.x;
  v.sum[lane] += static_cast<unsigned long long>(v.i) * 100 + lane;
  if (lane == 0) {
    seen[0] = static_cast<unsigned long long>(v.i);
    seen[1] = static_cast<unsigned long long>(static_cast<long long>(v.s));
  }
}

// Kernels whose structs --arg cannot describe: the check says which field and why.
struct Inner {
  int a;
  int b;
};
struct Nested {
  Inner inner;
  float f;
};
__global__ void nested(Nested n, float* out) { out[threadIdx.x] = n.f + n.inner.a; }

struct WithArray {
  float v[3];
  int n;
};
__global__ void with_array(WithArray w, float* out) { out[threadIdx.x] = w.v[0] * w.n; }

union Bits {
  int i;
  float f;
};
__global__ void takes_union(Bits b, int* out) { out[threadIdx.x] = b.i; }

// A struct with a base class: its fields are not reflected (only size and alignment checked).
struct Tag {};
struct Tagged : Tag {
  int value;
  int* out;
};
__global__ void tagged(Tagged t) { t.out[threadIdx.x] = t.value + static_cast<int>(threadIdx.x); }

// A CUDA vector type by value: four floats, 16-byte aligned.
__global__ void by_float4(float4 v, float* out) {
  out[threadIdx.x] = v.x + 10 * v.y + 100 * v.z + 1000 * v.w;
}
