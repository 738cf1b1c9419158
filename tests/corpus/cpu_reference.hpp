// CPU references for the proof corpus (tests/corpus/kernels): one plain host function per kernel
// file that states, in the plainest loop, what the kernel must compute (moderngpu style).
//
// Where a kernel combines floats in a fixed tree (shuffle reductions and scans), the reference
// adds in the same order, lane array by lane array, so the comparison can be bit for bit; the
// helpers below spell out one shuffle step of that order. Each function takes the kernel's
// parameters in order (buffers as vectors, outputs by reference) plus the launch shape.
//
//   std::vector<HostArg> args = ...;              // parsed from the manifest's --arg list
//   find_reference("01_warp_reduce_shfl_down")(launch, args);   // fills the output buffers
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace corpus {

enum class ElemType : std::uint8_t { i32, u32, f32, i64, u64, f64 };

std::size_t elem_size(ElemType type);

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  unsigned count() const { return x * y * z; }
};

struct Launch {
  Dim3 grid, block;
  unsigned threads() const { return grid.count() * block.count(); }
};

// One kernel argument as the host sees it: a scalar (one element) or a buffer, every element
// kept as its raw bits zero-extended to 64, so no type loses anything in transit.
struct HostArg {
  ElemType type = ElemType::i32;
  bool is_buffer = false;
  std::vector<std::uint64_t> bits;

  template <class T>
  std::vector<T> get() const {
    std::vector<T> out(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i) std::memcpy(&out[i], &bits[i], sizeof(T));
    return out;
  }
  template <class T>
  void set(const std::vector<T>& values) {
    bits.assign(values.size(), 0);
    for (std::size_t i = 0; i < values.size(); ++i) std::memcpy(&bits[i], &values[i], sizeof(T));
  }
  template <class T>
  T scalar() const {
    T value{};
    std::memcpy(&value, &bits.at(0), sizeof(T));
    return value;
  }
};

using ReferenceFn = void (*)(const Launch&, std::vector<HostArg>&);

// The reference registered under a manifest entry's name, or nullptr.
ReferenceFn find_reference(std::string_view name);

// The names that have a reference (so a test can report entries without one).
std::vector<std::string_view> reference_names();

// ---------------------------------------------------------------------------------------------
// The references, one per kernel file (outputs are the non-const vectors).

// 01: each warp's 32 elements (zero past n) summed in shfl_down order: offsets 16, 8, 4, 2, 1.
void warp_reduce_sum(const Launch& l, const std::vector<float>& in, std::vector<float>& warp_sums,
                     int n);
// 02: every lane gets its warp's butterfly sum (xor 16, 8, 4, 2, 1) and its warp's maximum.
void butterfly_allreduce(const Launch& l, const std::vector<float>& x, const std::vector<int>& k,
                         std::vector<float>& sums, std::vector<int>& maxes);
// 03: block b sums elements [2b*blockDim, 2(b+1)*blockDim) below n; total is their sum.
void block_sum_atomic(const Launch& l, const std::vector<int>& in, std::vector<int>& block_sums,
                      std::vector<int>& total, int n);
// 04: the 64-bit sum of the n inputs.
void grid_stride_sum(const Launch& l, const std::vector<unsigned>& in,
                     std::vector<unsigned long long>& total, int n);
// 05: inclusive prefix sums within each warp, in Kogge-Stone order.
void warp_scan(const Launch& l, const std::vector<float>& in, std::vector<float>& out);
// 06: exclusive prefix sums within each block, and each block's total.
void block_exclusive_scan(const Launch& l, const std::vector<int>& in, std::vector<int>& out,
                          std::vector<int>& block_totals);
// 07: each warp's positive elements (index < n), in order, at the start of its 32-slot segment.
void compact_positive(const Launch& l, const std::vector<int>& in, std::vector<int>& out,
                      std::vector<int>& warp_counts, std::vector<int>& total, int n);
// 08: histogram of key % 16 over the n keys; each lane's mask of warp lanes with its bin.
void histogram_match_any(const Launch& l, const std::vector<int>& keys, std::vector<unsigned>& hist,
                         std::vector<unsigned>& peer_masks, int n);
// 09: each warp's 32 keys in ascending order.
void warp_bitonic_sort(const Launch& l, const std::vector<int>& in, std::vector<int>& out);
// 10: segmented inclusive scan per warp (segments start at head flags and at lane 0), and each
// segment's sum stored at its head.
void segmented_warp_sum(const Launch& l, const std::vector<float>& values,
                        const std::vector<int>& head_flags, std::vector<float>& scan_out,
                        std::vector<float>& segment_sums);
// 11: softmax of each of `rows` rows of `cols` values (computed in double).
void softmax_rows(const Launch& l, const std::vector<float>& x, std::vector<float>& y, int rows,
                  int cols);
// 12: every lane gets its warp's sum, maximum and minimum.
void warp_stats(const Launch& l, const std::vector<int>& in, std::vector<int>& sums,
                std::vector<int>& maxs, std::vector<int>& mins);
// 12 (block_max_abs<128>): the largest |x| of each block.
void block_max_abs(const Launch& l, const std::vector<float>& in, std::vector<float>& out);
// 13: group-of-8 sums, group-of-16 shift-down partial sums, their broadcast from each group's
// first lane, and group-of-8 float sums in butterfly order.
void subwarp_sums(const Launch& l, const std::vector<int>& in, const std::vector<float>& x,
                  std::vector<int>& sum8, std::vector<int>& down16, std::vector<int>& bcast16,
                  std::vector<float>& fsum8);
// 14: warp sum (wrapping), signed max and min, unsigned min, or, xor; the sum over the positive
// lanes for positive lanes (others keep their initial value).
void warp_redux(const Launch& l, const std::vector<int>& in, std::vector<int>& sum_all,
                std::vector<int>& max_all, std::vector<int>& min_all,
                std::vector<unsigned>& umin_all, std::vector<unsigned>& or_all,
                std::vector<unsigned>& xor_all, std::vector<int>& sum_positive);
// 15: each block's sum (zero past n) in shared-memory tree order.
void dyn_shared_reduce(const Launch& l, const std::vector<float>& in,
                       std::vector<float>& block_sums, int n);
// 16: butterfly double sums, shift-down long long maxima, lane reversal, rotation by one.
void wide_shuffles(const Launch& l, const std::vector<double>& x, const std::vector<long long>& k,
                   std::vector<double>& dsum, std::vector<long long>& kmax,
                   std::vector<long long>& krev, std::vector<double>& drot);
// 17: each warp's sum.
void warp_sums_printf(const Launch& l, const std::vector<int>& in, std::vector<int>& out);
// 18: Collatz step counts, each warp's round count (its lanes' largest step count), and
// whether every start value of the warp is below 50.
void collatz_steps(const Launch& l, const std::vector<unsigned>& start,
                   std::vector<unsigned>& steps, std::vector<unsigned>& warp_rounds,
                   std::vector<int>& all_small);
// 19: the warp's dot product of (a, b) pairs, in half precision (exact for these inputs).
void half2_dot(const Launch& l, const std::vector<float>& a, const std::vector<float>& b,
               std::vector<float>& out);
// 20 (misuse): per-warp sums of the first n elements (what the kernel means, and what an H100
// gives since it returns 0 for exited lanes).
void tail_warp_sum(const Launch& l, const std::vector<int>& in, std::vector<int>& warp_sums, int n);
// 21 (misuse): the sum of the first 20 inputs.
void sum_first_elements(const Launch& l, const std::vector<int>& input, std::vector<int>& out);
// 24 (misuse): each block's sum of the elements below n.
void block_sum_early_exit(const Launch& l, const std::vector<int>& in, std::vector<int>& block_sums,
                          int n);
// 25 (misuse): what hardware does: both calls reduce both halves (group-of-16 shift-down sums).
void half_sums(const Launch& l, const std::vector<int>& in, std::vector<int>& lower_sums,
               std::vector<int>& upper_sums);
// 26 (misuse): lanes 0-15 of each warp swap neighbours (i ^ 1); lanes 16-31 keep theirs.
void swap_lower_pairs(const Launch& l, const std::vector<int>& in, std::vector<int>& out);
// 27 (misuse): lane l's sum of row[k] + row[k ^ 1] over k = l, l + 32, ... below n.
void pair_sums_strided(const Launch& l, const std::vector<int>& row, std::vector<int>& out, int n);
// 28 (misuse): how many of each warp's 32 elements are positive.
void count_positive_per_warp(const Launch& l, const std::vector<int>& in, std::vector<int>& counts);

}  // namespace corpus
