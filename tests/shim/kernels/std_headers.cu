// A cooperative-groups kernel file that includes every C++17 standard header after the CUDA
// headers, as real kernel files include <vector> or <algorithm> after <cooperative_groups.h>.
// libstdc++ writes __attribute__((__noinline__)) in <memory> and <string>: with the shim's
// __noinline__ macro that broke GCC 12 (<memory>) and GCC 13 (every header that reaches
// <string>, so every cooperative-groups kernel). Compiled by host_compilers_test.cpp with each
// compiler it finds.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <any>
#include <array>
#include <atomic>
#include <bitset>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cfenv>
#include <cfloat>
#include <charconv>
#include <chrono>
#include <cinttypes>
#include <climits>
#include <clocale>
#include <cmath>
#include <complex>
#include <condition_variable>
#include <csetjmp>
#include <csignal>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuchar>
#include <cwchar>
#include <cwctype>
#include <deque>
#include <exception>
#include <filesystem>
#include <forward_list>
#include <fstream>
#include <functional>
#include <future>
#include <initializer_list>
#include <iomanip>
#include <ios>
#include <iosfwd>
#include <iostream>
#include <istream>
#include <iterator>
#include <limits>
#include <list>
#include <locale>
#include <map>
#include <math.h>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <new>
#include <numeric>
#include <optional>
#include <ostream>
#include <queue>
#include <random>
#include <ratio>
#include <regex>
#include <scoped_allocator>
#include <set>
#include <shared_mutex>
#include <sstream>
#include <stack>
#include <stdexcept>
#include <stdlib.h>
#include <streambuf>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <valarray>
#include <variant>
#include <vector>
#if __has_include(<bits/stdc++.h>)
#include <bits/stdc++.h>
#endif

namespace cg = cooperative_groups;

__device__ __noinline__ int twice(int x) { return 2 * x; }

// out[i] = 2 * (sum of in over i's tile of 8) + the tile's largest input.
__global__ void tile_sums(const int* in, int* out) {
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int sum = cg::reduce(tile, in[i], cg::plus<int>());
  const int largest = cg::reduce(tile, in[i], cg::greater<int>());
  out[i] = twice(sum) + std::max(largest, 0);
}
