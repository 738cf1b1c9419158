// llm.c's fused_classifier_kernel5 (llmc/fused_classifier.cuh): for each of B*T rows of V bf16
// logits (padded to P), an online softmax per thread, the block's max and sum by blockReduce
// (llmc/cuda_utils.cuh: warpReduceMax / warpReduceSum, the warps' values through shared memory),
// then the loss at the target and the logits replaced by their gradients, in 128-bit packets.
// Launched by llm.c's own host launcher fused_classifier (block 1024, one block a row).
// llmc/cuda_utils.cuh calls assert without including <assert.h> (train_gpt2.cu includes it
// first); nvcc 13 and the shim both need it included.
#include <assert.h>

#include "llmc/fused_classifier.cuh"

#include "harness.cuh"

cudaDeviceProp deviceProp;  // llmc/cuda_common.h declares it for the main program to define

int main() {
  // V of at least 8 x 1024 - 7, as GPT-2's 50257: prepare_softmax_blockwide3 starts each thread at
  // (V + 7) / 8 + threadIdx.x - blockDim.x and loops while (i + 1) * x128::size > V, in size_t,
  // so for smaller V a negative i never leaves the loop (warpsim names that livelock; a GPU hangs).
  const int B = 2, T = 2, V = 8195, P = 8200, rows = B * T;
  const float dloss = 1.0f / (B * T);
  std::vector<floatX> logits(size_t(rows) * P);
  std::vector<float> lf(logits.size());
  LlmRandom random(11);
  for (size_t i = 0; i < logits.size(); ++i) lf[i] = float(logits[i] = floatX(random.uniform(-4.0f, 4.0f)));
  std::vector<int> targets(rows);
  for (int& t : targets) t = random.integer(0, V - 1);
  floatX* d_logits = llm_to_device(logits);
  float* d_losses = llm_to_device(std::vector<float>(rows));
  int* d_targets = llm_to_device(targets);
  fused_classifier(d_logits, d_losses, dloss, d_targets, B, T, V, P, True, 0);
  LLM_CHECK(cudaDeviceSynchronize());
  const std::vector<floatX> grads = llm_to_host(d_logits, logits.size());
  const std::vector<float> losses = llm_to_host(d_losses, rows);

  std::vector<float> got;
  std::vector<double> want;
  for (int r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int v = 0; v < V; ++v) max = std::fmax(max, lf[r * P + v]);
    for (int v = 0; v < V; ++v) sum += std::exp(lf[r * P + v] - max);
    got.push_back(losses[r]);
    want.push_back(-std::log(std::exp(lf[r * P + targets[r]] - max) / sum));
    for (int v = 0; v < V; ++v) {
      const double prob = std::exp(lf[r * P + v] - max) / sum;
      got.push_back(float(grads[r * P + v]));
      want.push_back((prob - (v == targets[r] ? 1.0 : 0.0)) * dloss);
    }
  }
  // bf16 gradients: 2^-8 of the value, below the absolute floor of 1 here, so 1e-3 absolute.
  return llm_report("fused_classifier_kernel5", "4x8195", llm_max_error(got, want), 1e-3);
}
