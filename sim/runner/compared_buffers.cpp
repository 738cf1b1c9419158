#include "warpsim/compared_buffers.hpp"

namespace warpsim::runner {

ComparedBuffers::ComparedBuffers(const std::vector<OutputBuffer>& buffers) {
  shown_.reserve(buffers.size());
  data_.reserve(buffers.size());
  for (const OutputBuffer& b : buffers) {
    shown_.push_back(shown_buffer(b.type, b.bytes));
    data_.push_back(BufferData{b.arg, shown_.back().type, shown_.back().bytes, b.field});
  }
}

}  // namespace warpsim::runner
