// A simulator run's buffers as a GPU comparison (warpsim/device_trace.hpp) takes them: every
// buffer, struct fields' included, with 8- and 16-bit elements widened to 32 bits
// (runner::shown_buffer), as the GPU side's buffers come back from run_on_gpu.
//
//   ComparedBuffers sim(result.buffers);
//   GpuComparison comparison = compare_run(gpu_run, &result.trace, sim.data(), tolerance);
#pragma once

#include <span>
#include <vector>

#include "warpsim/device_trace.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {

class ComparedBuffers {
 public:
  explicit ComparedBuffers(const std::vector<OutputBuffer>& buffers);
  ComparedBuffers(const ComparedBuffers&) = delete;  // data() points into shown_
  ComparedBuffers& operator=(const ComparedBuffers&) = delete;

  std::span<const BufferData> data() const { return data_; }

 private:
  std::vector<ShownBuffer> shown_;
  std::vector<BufferData> data_;
};

}  // namespace warpsim::runner
