#include "cpu_reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>

namespace corpus {

std::size_t elem_size(ElemType type) {
  switch (type) {
    case ElemType::i32:
    case ElemType::u32:
    case ElemType::f32:
      return 4;
    case ElemType::i64:
    case ElemType::u64:
    case ElemType::f64:
      return 8;
  }
  return 0;
}

namespace {

constexpr int kWarp = 32;

template <class T>
using Lanes = std::array<T, kWarp>;

// The 32 lanes of warp `w` of a one-dimensional launch: elements [32w, 32w + 32) of `v`.
template <class T>
Lanes<T> warp_of(const std::vector<T>& v, unsigned w) {
  Lanes<T> lanes{};
  std::copy_n(v.begin() + std::ptrdiff_t{w} * kWarp, kWarp, lanes.begin());
  return lanes;
}

template <class T>
void store_warp(std::vector<T>& v, unsigned w, const Lanes<T>& lanes) {
  std::copy(lanes.begin(), lanes.end(), v.begin() + std::ptrdiff_t{w} * kWarp);
}

// What every lane receives from one full-mask shuffle in a group of `width` lanes
// (warp-semantics.md 1.3): a source outside the lane's group gives the lane its own value.
template <class T>
Lanes<T> shfl_down(const Lanes<T>& v, int delta, int width = kWarp) {
  Lanes<T> out{};
  for (int lane = 0; lane < kWarp; ++lane) {
    const int src = lane + delta;
    out[lane] = (lane % width) + delta < width ? v[src] : v[lane];
  }
  return out;
}

template <class T>
Lanes<T> shfl_up(const Lanes<T>& v, int delta, int width = kWarp) {
  Lanes<T> out{};
  for (int lane = 0; lane < kWarp; ++lane)
    out[lane] = (lane % width) >= delta ? v[lane - delta] : v[lane];
  return out;
}

template <class T>
Lanes<T> shfl_xor(const Lanes<T>& v, int mask) {  // mask < width: never leaves the group
  Lanes<T> out{};
  for (int lane = 0; lane < kWarp; ++lane) out[lane] = v[lane ^ mask];
  return out;
}

// `v += shuffled`, lane by lane, in the kernel's operand order.
template <class T>
void add_lanes(Lanes<T>& v, const Lanes<T>& other) {
  for (int lane = 0; lane < kWarp; ++lane) v[lane] = v[lane] + other[lane];
}

// x rounded to the nearest binary16 value, ties to even (normal and subnormal range).
float round_to_half(float x) {
  if (x == 0.0f || !std::isfinite(x)) return x;
  int exponent = 0;
  std::frexp(x, &exponent);                          // x = m * 2^exponent with 0.5 <= |m| < 1
  const int quantum = std::max(exponent - 11, -24);  // 11 significant bits; subnormals: 2^-24
  return std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
}

unsigned warps(const Launch& l) { return l.threads() / kWarp; }

}  // namespace

// ---------------------------------------------------------------------------------------------

void warp_reduce_sum(const Launch& l, const std::vector<float>& in, std::vector<float>& warp_sums,
                     int n) {
  for (unsigned w = 0; w < warps(l); ++w) {
    Lanes<float> v{};
    for (int lane = 0; lane < kWarp; ++lane) {
      const int i = static_cast<int>(w) * kWarp + lane;
      v[lane] = i < n ? in[i] : 0.0f;
    }
    for (int offset = 16; offset > 0; offset /= 2) add_lanes(v, shfl_down(v, offset));
    warp_sums[w] = v[0];
  }
}

void butterfly_allreduce(const Launch& l, const std::vector<float>& x, const std::vector<int>& k,
                         std::vector<float>& sums, std::vector<int>& maxes) {
  for (unsigned w = 0; w < warps(l); ++w) {
    Lanes<float> v = warp_of(x, w);
    for (int mask = 16; mask > 0; mask >>= 1) add_lanes(v, shfl_xor(v, mask));
    store_warp(sums, w, v);

    const Lanes<int> keys = warp_of(k, w);
    const int largest = *std::max_element(keys.begin(), keys.end());
    for (int lane = 0; lane < kWarp; ++lane) maxes[w * kWarp + lane] = largest;
  }
}

void block_sum_atomic(const Launch& l, const std::vector<int>& in, std::vector<int>& block_sums,
                      std::vector<int>& total, int n) {
  const int per_block = 2 * static_cast<int>(l.block.x);
  for (unsigned b = 0; b < l.grid.x; ++b) {
    int sum = 0;
    for (int i = static_cast<int>(b) * per_block; i < static_cast<int>(b + 1) * per_block && i < n;
         ++i) {
      sum += in[i];
    }
    block_sums[b] = sum;
    total[0] += sum;
  }
}

void grid_stride_sum(const Launch&, const std::vector<unsigned>& in,
                     std::vector<unsigned long long>& total, int n) {
  for (int i = 0; i < n; ++i) total[0] += in[i];
}

void warp_scan(const Launch& l, const std::vector<float>& in, std::vector<float>& out) {
  for (unsigned w = 0; w < warps(l); ++w) {
    Lanes<float> v = warp_of(in, w);
    for (int offset = 1; offset < kWarp; offset <<= 1) {
      const Lanes<float> up = shfl_up(v, offset);
      for (int lane = offset; lane < kWarp; ++lane) v[lane] = v[lane] + up[lane];
    }
    store_warp(out, w, v);
  }
}

void block_exclusive_scan(const Launch& l, const std::vector<int>& in, std::vector<int>& out,
                          std::vector<int>& block_totals) {
  const unsigned size = l.block.x;
  for (unsigned b = 0; b < l.grid.x; ++b) {
    int running = 0;
    for (unsigned t = 0; t < size; ++t) {
      out[b * size + t] = running;
      running += in[b * size + t];
    }
    block_totals[b] = running;
  }
}

void compact_positive(const Launch& l, const std::vector<int>& in, std::vector<int>& out,
                      std::vector<int>& warp_counts, std::vector<int>& total, int n) {
  for (unsigned w = 0; w < warps(l); ++w) {
    int count = 0;
    for (int lane = 0; lane < kWarp; ++lane) {
      const int i = static_cast<int>(w) * kWarp + lane;
      if (i < n && in[i] > 0) out[w * kWarp + count++] = in[i];
    }
    warp_counts[w] = count;
    total[0] += count;
  }
}

void histogram_match_any(const Launch& l, const std::vector<int>& keys, std::vector<unsigned>& hist,
                         std::vector<unsigned>& peer_masks, int n) {
  auto bin_of = [&](int i) { return i < n ? keys[i] % 16 : -1; };
  for (int i = 0; i < n; ++i) ++hist[bin_of(i)];
  for (unsigned w = 0; w < warps(l); ++w) {
    for (int lane = 0; lane < kWarp; ++lane) {
      unsigned peers = 0;
      for (int other = 0; other < kWarp; ++other) {
        if (bin_of(w * kWarp + other) == bin_of(w * kWarp + lane)) peers |= 1u << other;
      }
      peer_masks[w * kWarp + lane] = peers;
    }
  }
}

void warp_bitonic_sort(const Launch& l, const std::vector<int>& in, std::vector<int>& out) {
  for (unsigned w = 0; w < warps(l); ++w) {
    Lanes<int> keys = warp_of(in, w);
    std::sort(keys.begin(), keys.end());
    store_warp(out, w, keys);
  }
}

void segmented_warp_sum(const Launch& l, const std::vector<float>& values,
                        const std::vector<int>& head_flags, std::vector<float>& scan_out,
                        std::vector<float>& segment_sums) {
  for (unsigned w = 0; w < warps(l); ++w) {
    const Lanes<int> flags = warp_of(head_flags, w);
    Lanes<int> seg_start{};
    for (int lane = 0; lane < kWarp; ++lane) {
      seg_start[lane] = (lane == 0 || flags[lane] != 0) ? lane : seg_start[lane - 1];
    }
    Lanes<float> v = warp_of(values, w);
    for (int offset = 1; offset < kWarp; offset <<= 1) {
      const Lanes<float> up = shfl_up(v, offset);
      for (int lane = 0; lane < kWarp; ++lane) {
        if (lane - offset >= seg_start[lane]) v[lane] = v[lane] + up[lane];
      }
    }
    store_warp(scan_out, w, v);
    // A segment's sum is the scan at its last lane, stored at its head.
    for (int lane = 0; lane < kWarp; ++lane) {
      const bool is_tail = lane == kWarp - 1 || seg_start[lane + 1] == lane + 1;
      if (is_tail) segment_sums[w * kWarp + seg_start[lane]] = v[lane];
    }
  }
}

void softmax_rows(const Launch&, const std::vector<float>& x, std::vector<float>& y, int rows,
                  int cols) {
  for (int r = 0; r < rows; ++r) {
    const float* row = &x[static_cast<std::size_t>(r) * cols];
    double largest = row[0];
    for (int c = 0; c < cols; ++c) largest = std::max(largest, double{row[c]});
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) sum += std::exp(row[c] - largest);
    for (int c = 0; c < cols; ++c) {
      y[static_cast<std::size_t>(r) * cols + c] =
          static_cast<float>(std::exp(row[c] - largest) / sum);
    }
  }
}

void warp_stats(const Launch& l, const std::vector<int>& in, std::vector<int>& sums,
                std::vector<int>& maxs, std::vector<int>& mins) {
  for (unsigned w = 0; w < warps(l); ++w) {
    const Lanes<int> v = warp_of(in, w);
    int sum = 0;
    for (int x : v) sum += x;
    for (int lane = 0; lane < kWarp; ++lane) {
      sums[w * kWarp + lane] = sum;
      maxs[w * kWarp + lane] = *std::max_element(v.begin(), v.end());
      mins[w * kWarp + lane] = *std::min_element(v.begin(), v.end());
    }
  }
}

void block_max_abs(const Launch& l, const std::vector<float>& in, std::vector<float>& out) {
  for (unsigned b = 0; b < l.grid.x; ++b) {
    float largest = 0.0f;
    for (unsigned t = 0; t < l.block.x; ++t)
      largest = std::max(largest, std::fabs(in[b * l.block.x + t]));
    out[b] = largest;
  }
}

void subwarp_sums(const Launch& l, const std::vector<int>& in, const std::vector<float>& x,
                  std::vector<int>& sum8, std::vector<int>& down16, std::vector<int>& bcast16,
                  std::vector<float>& fsum8) {
  for (unsigned w = 0; w < warps(l); ++w) {
    const Lanes<int> v = warp_of(in, w);
    for (int lane = 0; lane < kWarp; ++lane) {
      const int group = lane / 8 * 8;
      int sum = 0;
      for (int k = group; k < group + 8; ++k) sum += v[k];
      sum8[w * kWarp + lane] = sum;
    }

    Lanes<int> d = v;
    for (int offset = 8; offset > 0; offset >>= 1) add_lanes(d, shfl_down(d, offset, 16));
    store_warp(down16, w, d);
    for (int lane = 0; lane < kWarp; ++lane) bcast16[w * kWarp + lane] = d[lane / 16 * 16];

    Lanes<float> f = warp_of(x, w);
    for (int offset = 4; offset > 0; offset >>= 1) add_lanes(f, shfl_xor(f, offset));
    store_warp(fsum8, w, f);
  }
}

void warp_redux(const Launch& l, const std::vector<int>& in, std::vector<int>& sum_all,
                std::vector<int>& max_all, std::vector<int>& min_all,
                std::vector<unsigned>& umin_all, std::vector<unsigned>& or_all,
                std::vector<unsigned>& xor_all, std::vector<int>& sum_positive) {
  for (unsigned w = 0; w < warps(l); ++w) {
    const Lanes<int> v = warp_of(in, w);
    unsigned sum = 0, positive_sum = 0, umin = 0xffffffffu, bits_or = 0, bits_xor = 0;
    int largest = v[0], smallest = v[0];
    for (int x : v) {
      const unsigned u = static_cast<unsigned>(x);
      sum += u;  // wraps modulo 2^32, as redux.sync.add does
      if (x > 0) positive_sum += u;
      largest = std::max(largest, x);
      smallest = std::min(smallest, x);
      umin = std::min(umin, u);
      bits_or |= u;
      bits_xor ^= u;
    }
    for (int lane = 0; lane < kWarp; ++lane) {
      const unsigned i = w * kWarp + lane;
      sum_all[i] = static_cast<int>(sum);
      max_all[i] = largest;
      min_all[i] = smallest;
      umin_all[i] = umin;
      or_all[i] = bits_or;
      xor_all[i] = bits_xor;
      if (v[lane] > 0) sum_positive[i] = static_cast<int>(positive_sum);
    }
  }
}

void dyn_shared_reduce(const Launch& l, const std::vector<float>& in,
                       std::vector<float>& block_sums, int n) {
  const unsigned size = l.block.x;
  for (unsigned b = 0; b < l.grid.x; ++b) {
    std::vector<float> s(size);
    for (unsigned t = 0; t < size; ++t)
      s[t] = b * size + t < static_cast<unsigned>(n) ? in[b * size + t] : 0.0f;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      for (unsigned t = 0; t < stride; ++t) s[t] += s[t + stride];
    }
    block_sums[b] = s[0];
  }
}

void wide_shuffles(const Launch& l, const std::vector<double>& x, const std::vector<long long>& k,
                   std::vector<double>& dsum, std::vector<long long>& kmax,
                   std::vector<long long>& krev, std::vector<double>& drot) {
  for (unsigned w = 0; w < warps(l); ++w) {
    Lanes<double> d = warp_of(x, w);
    for (int mask = 16; mask > 0; mask >>= 1) add_lanes(d, shfl_xor(d, mask));
    store_warp(dsum, w, d);

    Lanes<long long> m = warp_of(k, w);
    for (int offset = 16; offset > 0; offset >>= 1) {
      const Lanes<long long> other = shfl_down(m, offset);
      for (int lane = 0; lane < kWarp; ++lane) m[lane] = std::max(m[lane], other[lane]);
    }
    store_warp(kmax, w, m);

    for (int lane = 0; lane < kWarp; ++lane) {
      krev[w * kWarp + lane] = k[w * kWarp + (31 - lane)];
      drot[w * kWarp + lane] = x[w * kWarp + ((lane + 1) & 31)];
    }
  }
}

void warp_sums_printf(const Launch& l, const std::vector<int>& in, std::vector<int>& out) {
  for (unsigned w = 0; w < warps(l); ++w) {
    int sum = 0;
    for (int lane = 0; lane < kWarp; ++lane) sum += in[w * kWarp + lane];
    out[w] = sum;
  }
}

void collatz_steps(const Launch& l, const std::vector<unsigned>& start,
                   std::vector<unsigned>& steps, std::vector<unsigned>& warp_rounds,
                   std::vector<int>& all_small) {
  for (unsigned w = 0; w < warps(l); ++w) {
    unsigned rounds = 0;
    bool small = true;
    for (int lane = 0; lane < kWarp; ++lane) {
      const unsigned i = w * kWarp + lane;
      unsigned n = start[i], count = 0;
      while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        ++count;
      }
      steps[i] = count;
      rounds = std::max(rounds, count);  // the warp loops until its slowest lane is done
      small = small && start[i] < 50;
    }
    warp_rounds[w] = rounds;
    for (int lane = 0; lane < kWarp; ++lane) all_small[w * kWarp + lane] = small ? 1 : 0;
  }
}

void half2_dot(const Launch& l, const std::vector<float>& a, const std::vector<float>& b,
               std::vector<float>& out) {
  for (unsigned w = 0; w < warps(l); ++w) {
    // Each lane's pair of half products, rounded once as __hmul2 does.
    Lanes<float> lo{}, hi{};
    for (int lane = 0; lane < kWarp; ++lane) {
      const unsigned i = w * kWarp + lane;
      lo[lane] = round_to_half(round_to_half(a[2 * i]) * round_to_half(b[2 * i]));
      hi[lane] = round_to_half(round_to_half(a[2 * i + 1]) * round_to_half(b[2 * i + 1]));
    }
    for (int mask = 16; mask > 0; mask >>= 1) {
      const Lanes<float> lo_other = shfl_xor(lo, mask), hi_other = shfl_xor(hi, mask);
      for (int lane = 0; lane < kWarp; ++lane) {
        lo[lane] = round_to_half(lo[lane] + lo_other[lane]);
        hi[lane] = round_to_half(hi[lane] + hi_other[lane]);
      }
    }
    for (int lane = 0; lane < kWarp; ++lane) out[w * kWarp + lane] = lo[lane] + hi[lane];
  }
}

void tail_warp_sum(const Launch& l, const std::vector<int>& in, std::vector<int>& warp_sums,
                   int n) {
  for (unsigned w = 0; w < warps(l); ++w) {
    if (static_cast<int>(w) * kWarp >= n) continue;  // no lane of this warp is left to write
    int sum = 0;
    for (int i = static_cast<int>(w) * kWarp; i < static_cast<int>(w + 1) * kWarp && i < n; ++i)
      sum += in[i];
    warp_sums[w] = sum;
  }
}

void sum_first_elements(const Launch&, const std::vector<int>& input, std::vector<int>& out) {
  int sum = 0;
  for (int i = 0; i < 20; ++i) sum += input[i];
  out[0] = sum;
}

void block_sum_early_exit(const Launch& l, const std::vector<int>& in, std::vector<int>& block_sums,
                          int n) {
  for (unsigned b = 0; b < l.grid.x; ++b) {
    if (static_cast<int>(b * l.block.x) >= n) continue;  // thread 0 returned early
    int sum = 0;
    for (unsigned t = 0; t < l.block.x && static_cast<int>(b * l.block.x + t) < n; ++t) {
      sum += in[b * l.block.x + t];
    }
    block_sums[b] = sum;
  }
}

void swap_lower_pairs(const Launch& l, const std::vector<int>& in, std::vector<int>& out) {
  for (std::size_t i = 0; i < std::size_t{l.grid.x} * l.block.x; ++i) {
    out[i] = i % kWarp < 16 ? in[i ^ 1] : in[i];
  }
}

void pair_sums_strided(const Launch&, const std::vector<int>& row, std::vector<int>& out, int n) {
  for (int lane = 0; lane < kWarp; ++lane) {
    int acc = 0;
    for (int k = lane; k < n; k += kWarp) acc += row[static_cast<std::size_t>(k)] +
                                                 row[static_cast<std::size_t>(k ^ 1)];
    out[static_cast<std::size_t>(lane)] = acc;
  }
}

void count_positive_per_warp(const Launch& l, const std::vector<int>& in, std::vector<int>& counts) {
  for (unsigned w = 0; w < warps(l); ++w) {
    const Lanes<int> v = warp_of(in, w);
    counts[w] = static_cast<int>(std::count_if(v.begin(), v.end(), [](int x) { return x > 0; }));
  }
}

void ballot_mask_helper(const Launch& l, const std::vector<unsigned>& in,
                        std::vector<unsigned>& out) {
  for (unsigned t = 0; t < l.block.x; ++t) out[t] = (t & 31u) < 16u ? 1u + in[t & ~31u] : 0u;
}

void half_sums(const Launch& l, const std::vector<int>& in, std::vector<int>& lower_sums,
               std::vector<int>& upper_sums) {
  for (unsigned w = 0; w < warps(l); ++w) {
    Lanes<int> v = warp_of(in, w);
    for (int offset = 8; offset > 0; offset >>= 1) add_lanes(v, shfl_down(v, offset, 16));
    store_warp(lower_sums, w, v);
    store_warp(upper_sums, w, v);
  }
}

// ---------------------------------------------------------------------------------------------
// The registry: manifest entry name -> the reference, unpacking the arguments in kernel order.

namespace {

using Args = std::vector<HostArg>;

// An output buffer passed as `Out<T>(arg)`: a temporary that hands the reference a vector holding
// the buffer's initial contents, and writes the vector back into the argument when the call's
// full expression ends.
template <class T>
struct Out {
  HostArg& arg;
  std::vector<T> values;
  explicit Out(HostArg& a) : arg(a), values(a.get<T>()) {}
  ~Out() { arg.set(values); }
  operator std::vector<T>&() { return values; }
};

const std::map<std::string, ReferenceFn, std::less<>>& registry() {
  static const std::map<std::string, ReferenceFn, std::less<>> table = {
      {"01_warp_reduce_shfl_down",
       [](const Launch& l, Args& a) {
         warp_reduce_sum(l, a[0].get<float>(), Out<float>(a[1]), a[2].scalar<int>());
       }},
      {"02_warp_allreduce_xor",
       [](const Launch& l, Args& a) {
         butterfly_allreduce(l, a[0].get<float>(), a[1].get<int>(), Out<float>(a[2]),
                             Out<int>(a[3]));
       }},
      {"03_block_reduce_atomic",
       [](const Launch& l, Args& a) {
         block_sum_atomic(l, a[0].get<int>(), Out<int>(a[1]), Out<int>(a[2]), a[3].scalar<int>());
       }},
      {"04_grid_stride_sum",
       [](const Launch& l, Args& a) {
         grid_stride_sum(l, a[0].get<unsigned>(), Out<unsigned long long>(a[1]),
                         a[2].scalar<int>());
       }},
      {"05_warp_inclusive_scan",
       [](const Launch& l, Args& a) { warp_scan(l, a[0].get<float>(), Out<float>(a[1])); }},
      {"06_block_exclusive_scan",
       [](const Launch& l, Args& a) {
         block_exclusive_scan(l, a[0].get<int>(), Out<int>(a[1]), Out<int>(a[2]));
       }},
      {"07_ballot_compaction",
       [](const Launch& l, Args& a) {
         compact_positive(l, a[0].get<int>(), Out<int>(a[1]), Out<int>(a[2]), Out<int>(a[3]),
                          a[4].scalar<int>());
       }},
      {"08_match_any_histogram",
       [](const Launch& l, Args& a) {
         histogram_match_any(l, a[0].get<int>(), Out<unsigned>(a[1]), Out<unsigned>(a[2]),
                             a[3].scalar<int>());
       }},
      {"09_warp_bitonic_sort",
       [](const Launch& l, Args& a) { warp_bitonic_sort(l, a[0].get<int>(), Out<int>(a[1])); }},
      {"10_segmented_reduction",
       [](const Launch& l, Args& a) {
         segmented_warp_sum(l, a[0].get<float>(), a[1].get<int>(), Out<float>(a[2]),
                            Out<float>(a[3]));
       }},
      {"11_online_softmax",
       [](const Launch& l, Args& a) {
         softmax_rows(l, a[0].get<float>(), Out<float>(a[1]), a[2].scalar<int>(),
                      a[3].scalar<int>());
       }},
      {"12_templates_functors",
       [](const Launch& l, Args& a) {
         warp_stats(l, a[0].get<int>(), Out<int>(a[1]), Out<int>(a[2]), Out<int>(a[3]));
       }},
      {"12_templates_functors.block_max_abs",
       [](const Launch& l, Args& a) { block_max_abs(l, a[0].get<float>(), Out<float>(a[1])); }},
      {"13_subwarp_width",
       [](const Launch& l, Args& a) {
         subwarp_sums(l, a[0].get<int>(), a[1].get<float>(), Out<int>(a[2]), Out<int>(a[3]),
                      Out<int>(a[4]), Out<float>(a[5]));
       }},
      {"14_reduce_sync",
       [](const Launch& l, Args& a) {
         warp_redux(l, a[0].get<int>(), Out<int>(a[1]), Out<int>(a[2]), Out<int>(a[3]),
                    Out<unsigned>(a[4]), Out<unsigned>(a[5]), Out<unsigned>(a[6]), Out<int>(a[7]));
       }},
      {"15_dynamic_shared",
       [](const Launch& l, Args& a) {
         dyn_shared_reduce(l, a[0].get<float>(), Out<float>(a[1]), a[2].scalar<int>());
       }},
      {"16_wide_shuffles",
       [](const Launch& l, Args& a) {
         wide_shuffles(l, a[0].get<double>(), a[1].get<long long>(), Out<double>(a[2]),
                       Out<long long>(a[3]), Out<long long>(a[4]), Out<double>(a[5]));
       }},
      {"17_device_printf",
       [](const Launch& l, Args& a) { warp_sums_printf(l, a[0].get<int>(), Out<int>(a[1])); }},
      {"18_vote_any_loop",
       [](const Launch& l, Args& a) {
         collatz_steps(l, a[0].get<unsigned>(), Out<unsigned>(a[1]), Out<unsigned>(a[2]),
                       Out<int>(a[3]));
       }},
      {"19_half2_dot",
       [](const Launch& l, Args& a) {
         half2_dot(l, a[0].get<float>(), a[1].get<float>(), Out<float>(a[2]));
       }},
      {"20_misuse_tail_shfl_down",
       [](const Launch& l, Args& a) {
         tail_warp_sum(l, a[0].get<int>(), Out<int>(a[1]), a[2].scalar<int>());
       }},
      {"21_misuse_activemask_mask",
       [](const Launch& l, Args& a) { sum_first_elements(l, a[0].get<int>(), Out<int>(a[1])); }},
      {"29_ballot_mask_helper",
       [](const Launch& l, Args& a) {
         ballot_mask_helper(l, a[0].get<unsigned>(), Out<unsigned>(a[1]));
       }},
      {"24_misuse_syncthreads_early_return",
       [](const Launch& l, Args& a) {
         block_sum_early_exit(l, a[0].get<int>(), Out<int>(a[1]), a[2].scalar<int>());
       }},
      {"25_misuse_mask_excludes_lanes",
       [](const Launch& l, Args& a) {
         half_sums(l, a[0].get<int>(), Out<int>(a[1]), Out<int>(a[2]));
       }},
      {"26_misuse_full_mask_in_branch",
       [](const Launch& l, Args& a) { swap_lower_pairs(l, a[0].get<int>(), Out<int>(a[1])); }},
      {"26_misuse_full_mask_in_branch.interleaved",
       [](const Launch& l, Args& a) { swap_lower_pairs(l, a[0].get<int>(), Out<int>(a[1])); }},
      {"27_misuse_trip_count_loop",
       [](const Launch& l, Args& a) {
         pair_sums_strided(l, a[0].get<int>(), Out<int>(a[1]), a[2].scalar<int>());
       }},
      {"27_misuse_trip_count_loop.interleaved",
       [](const Launch& l, Args& a) {
         pair_sums_strided(l, a[0].get<int>(), Out<int>(a[1]), a[2].scalar<int>());
       }},
      {"28_misuse_activemask_ballot",
       [](const Launch& l, Args& a) {
         count_positive_per_warp(l, a[0].get<int>(), Out<int>(a[1]));
       }},
  };
  return table;
}

}  // namespace

ReferenceFn find_reference(std::string_view name) {
  const auto& table = registry();
  const auto it = table.find(name);
  return it == table.end() ? nullptr : it->second;
}

std::vector<std::string_view> reference_names() {
  std::vector<std::string_view> names;
  for (const auto& [name, fn] : registry()) names.emplace_back(name);
  return names;
}

}  // namespace corpus
