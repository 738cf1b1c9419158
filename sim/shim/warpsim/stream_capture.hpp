// Streams, events and CUDA graphs' nodes for whole programs. Work issued to a stream runs when it
// is issued (every stream runs in issue order), except on a stream under capture
// (cudaStreamBeginCapture): there each operation becomes a node of the capture's graph, with the
// stream's last node(s) as its dependencies, and runs only when a graph holding it is launched
// (warpsim/graph_api.hpp). Events recorded in a capturing stream carry its last nodes, so that a
// stream that waits on one joins the capture (the fork/join pattern of CUDA's documentation).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

struct CUgraph_st;
struct CUgraphExec_st;
struct CUgraphNode_st;
using cudaGraph_t = CUgraph_st*;
using cudaGraphExec_t = CUgraphExec_st*;
using cudaGraphNode_t = CUgraphNode_st*;

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05,
  cudaGraphNodeTypeWaitEvent = 0x06,
  cudaGraphNodeTypeEventRecord = 0x07,
  cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
  cudaGraphNodeTypeExtSemaphoreWait = 0x09,
  cudaGraphNodeTypeMemAlloc = 0x0a,
  cudaGraphNodeTypeMemFree = 0x0b,
  cudaGraphNodeTypeConditional = 0x0d,
  cudaGraphNodeTypeCount
};

namespace warpsim::shim {

// A node's work when its graph is launched on `stream`: a launch, a copy, a host function, ...
using NodeWork = std::function<int(CUstream_st* stream)>;

// Memory of a graph's allocation node: its address is fixed when the node is made (as CUDA
// fixes a graph allocation's virtual address), and it stays mapped while a graph holds the node
// or the program has not freed it, so that every launch of the graph finds it again. `live`:
// allocated by a launch and not yet freed (by a free node, cudaFree or cudaFreeAsync). `backed`:
// a launch gave it physical memory, which stays with the graphs after the free until
// cudaDeviceGraphMemTrim (or the allocation goes), as an H200 reports it.
struct GraphAllocation {
  void* address = nullptr;
  std::size_t bytes = 0;
  bool live = false;
  int holders = 0;  // alloc nodes (in graphs, clones and executable graphs) that name it
  bool backed = false;
};

// The physical memory of graph allocations comes in chunks of this size: measured on an H200
// (driver 580.159.04, CUDA 13.0), one graph allocation of 4000 bytes, launched twice with its free
// node, made used and reserved memory 33554432 bytes each; instantiating it made them 0 (nothing
// is backed before a launch), and cudaDeviceGraphMemTrim brought both back to 0.
inline constexpr std::size_t kGraphMemoryChunk = std::size_t{32} << 20;

// Every graph allocation of the program, with the totals cudaDeviceGetGraphMemAttribute reports.
struct GraphMemory {
  std::mutex mutex;
  std::vector<GraphAllocation> allocations;
  std::size_t used_high = 0;
  std::size_t reserved_high = 0;

  static GraphMemory& instance() {
    static GraphMemory memory;  // one per program
    return memory;
  }
  GraphAllocation* find(const void* address) {
    for (GraphAllocation& a : allocations)
      if (a.address == address) return &a;
    return nullptr;
  }
  // Physical memory associated with graphs, in whole chunks: what both the used and the reserved
  // totals report (they were equal in every state measured).
  std::size_t used() const {
    std::size_t total = 0;
    for (const GraphAllocation& a : allocations) total += a.backed ? a.bytes : 0;
    return (total + kGraphMemoryChunk - 1) / kGraphMemoryChunk * kGraphMemoryChunk;
  }
  std::size_t reserved() const { return used(); }
  // cudaDeviceGraphMemTrim: what no allocation holds now goes back.
  void trim() {
    for (GraphAllocation& a : allocations) a.backed = a.backed && a.live;
  }
  void note_totals() {
    used_high = std::max(used_high, used());
    reserved_high = std::max(reserved_high, reserved());
  }
  // Unmaps an allocation that no node holds and the program has freed.
  void forget_if_unused(const void* address) {
    const auto it = std::find_if(allocations.begin(), allocations.end(),
                                 [&](const GraphAllocation& a) { return a.address == address; });
    if (it == allocations.end() || it->holders > 0 || it->live) return;
    ::warpsim::program::release(it->address);
    allocations.erase(it);
  }
};

// An alloc node's hold on its allocation: copies (graph clones, executable graphs) hold it too.
struct AllocationHold {
  void* address;
  explicit AllocationHold(void* a) : address(a) {
    GraphMemory& memory = GraphMemory::instance();
    std::lock_guard<std::mutex> lock(memory.mutex);
    if (GraphAllocation* allocation = memory.find(address)) ++allocation->holders;
  }
  AllocationHold(const AllocationHold&) = delete;
  AllocationHold& operator=(const AllocationHold&) = delete;
  ~AllocationHold() {
    GraphMemory& memory = GraphMemory::instance();
    std::lock_guard<std::mutex> lock(memory.mutex);
    if (GraphAllocation* allocation = memory.find(address)) --allocation->holders;
    memory.forget_if_unused(address);
  }
};

// A new graph allocation of `bytes` (null when out of memory), held by the returned hold.
inline std::shared_ptr<AllocationHold> new_graph_allocation(std::size_t bytes) {
  void* address =
      ::warpsim::program::allocate(bytes == 0 ? 1 : bytes, ::warpsim::program::MemoryKind::device);
  if (address == nullptr) return nullptr;
  {
    GraphMemory& memory = GraphMemory::instance();
    std::lock_guard<std::mutex> lock(memory.mutex);
    memory.allocations.push_back({address, bytes, false, 0});
    memory.note_totals();
  }
  return std::make_shared<AllocationHold>(address);
}

// An alloc node runs: its memory is allocated (again) until freed.
inline int allocate_graph_memory(void* address) {
  GraphMemory& memory = GraphMemory::instance();
  std::lock_guard<std::mutex> lock(memory.mutex);
  GraphAllocation* allocation = memory.find(address);
  if (allocation == nullptr) return 1;  // cudaErrorInvalidValue
  allocation->live = true;
  allocation->backed = true;
  memory.note_totals();
  return 0;
}

// cudaFree, cudaFreeAsync or a free node on a graph allocation: true when `address` is one (it
// is then freed, and unmapped once no graph holds its node), false for any other pointer.
inline bool free_graph_memory(const void* address) {
  GraphMemory& memory = GraphMemory::instance();
  std::lock_guard<std::mutex> lock(memory.mutex);
  GraphAllocation* allocation = memory.find(address);
  if (allocation == nullptr) return false;
  allocation->live = false;
  memory.forget_if_unused(address);
  return true;
}

struct CaptureSession;

}  // namespace warpsim::shim

struct CUgraphNode_st {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::vector<CUgraphNode_st*> dependencies;  // nodes of the same graph
  ::warpsim::shim::NodeWork work;              // empty for empty, child-graph and memory nodes
  std::shared_ptr<CUgraph_st> child;           // cudaGraphNodeTypeGraph: the node's own copy
  std::shared_ptr<::warpsim::shim::AllocationHold> allocation;  // cudaGraphNodeTypeMemAlloc
  void* freed = nullptr;                                         // cudaGraphNodeTypeMemFree
  std::size_t index = 0;  // position in its graph's `nodes`
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order they were added

  CUgraphNode_st* add(cudaGraphNodeType type, const CUgraphNode_st* const* dependencies,
                      std::size_t count) {
    auto node = std::make_unique<CUgraphNode_st>();
    node->type = type;
    for (std::size_t i = 0; i < count; ++i)
      node->dependencies.push_back(const_cast<CUgraphNode_st*>(dependencies[i]));
    node->index = nodes.size();
    nodes.push_back(std::move(node));
    return nodes.back().get();
  }
  bool holds(const CUgraphNode_st* node) const {
    return node != nullptr && node->index < nodes.size() && nodes[node->index].get() == node;
  }
  // A copy whose nodes depend on each other as these do (a child graph's copy is deep).
  std::unique_ptr<CUgraph_st> clone() const {
    auto copy = std::make_unique<CUgraph_st>();
    for (const auto& node : nodes) {
      copy->nodes.push_back(std::make_unique<CUgraphNode_st>(*node));
      if (node->child) copy->nodes.back()->child = node->child->clone();
    }
    for (auto& n : copy->nodes)
      for (CUgraphNode_st*& d : n->dependencies) d = copy->nodes[d->index].get();
    return copy;
  }
  // The nodes in an order where each comes after its dependencies (the order they were added
  // where that is one); empty when the dependencies form a cycle.
  std::vector<CUgraphNode_st*> topological_order() const {
    std::vector<CUgraphNode_st*> order;
    std::vector<bool> done(nodes.size(), false);
    while (order.size() < nodes.size()) {
      bool progressed = false;
      for (const auto& node : nodes) {
        if (done[node->index]) continue;
        const bool ready = std::all_of(node->dependencies.begin(), node->dependencies.end(),
                                       [&](const CUgraphNode_st* d) { return done[d->index]; });
        if (!ready) continue;
        done[node->index] = true;
        order.push_back(node.get());
        progressed = true;
      }
      if (!progressed) return {};
    }
    return order;
  }
};

namespace warpsim::shim {

// One capture, from cudaStreamBeginCapture on its origin stream to cudaStreamEndCapture there.
// Sessions are never deleted (they are small): an event recorded in one may outlive it, and then
// finds it `ended`.
struct CaptureSession {
  bool ended = false;
  std::unique_ptr<CUgraph_st> graph = std::make_unique<CUgraph_st>();
  CUstream_st* origin = nullptr;
  unsigned long long id = 0;
  std::vector<CUstream_st*> streams;  // the origin and every stream that joined
};

}  // namespace warpsim::shim

struct CUstream_st {
  int id = 1;
  // Under capture: the session, and the nodes the next operation depends on.
  ::warpsim::shim::CaptureSession* capture = nullptr;
  std::vector<CUgraphNode_st*> capture_tips;
};
struct CUevent_st {
  double seconds = -1.0;  // when it was recorded (program::now_seconds); negative: never recorded
  // Recorded in a capturing stream: that capture and the stream's last nodes then.
  ::warpsim::shim::CaptureSession* capture = nullptr;
  std::vector<CUgraphNode_st*> capture_tips;
};

namespace warpsim::shim {

inline bool is_capturing(const CUstream_st* stream) {
  // 1 to 4: cudaStreamLegacy, cudaStreamPerThread, cudaStreamTailLaunch, cudaStreamFireAndForget.
  return stream != nullptr && reinterpret_cast<std::uintptr_t>(stream) > 4 &&
         stream->capture != nullptr;
}

// How many graph launches (run_graph) this thread is inside: a kernel launched then is one of a
// graph's, which `exec --gpu` records as such (warpsim/launch_buffers.hpp: the GPU side sees the
// launches captured into a graph, not the graph's own runs of them).
inline int& graph_runs_in_progress() {
  thread_local int depth = 0;
  return depth;
}

// A node of `type` at the end of a capturing stream: it depends on the stream's last nodes and
// becomes its last node.
inline CUgraphNode_st* capture_node(CUstream_st* stream, cudaGraphNodeType type) {
  CUgraph_st& graph = *stream->capture->graph;
  CUgraphNode_st* node =
      graph.add(type, stream->capture_tips.data(), stream->capture_tips.size());
  stream->capture_tips.assign(1, node);
  return node;
}

// Work issued to `stream`: done now, or on a capturing stream a node of the capture's graph that
// does it when the graph is launched. `work(stream)` returns a cudaError_t.
template <class Work>
int in_stream(CUstream_st* stream, cudaGraphNodeType type, Work work) {
  if (!is_capturing(stream)) return work(stream);
  capture_node(stream, type)->work = NodeWork(std::move(work));
  return 0;
}

}  // namespace warpsim::shim
