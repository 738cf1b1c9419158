// CUDA graphs for whole programs: graphs built node by node (cudaGraphAdd*Node) or by stream
// capture (warpsim/stream_capture.hpp), instantiated into an executable graph (a copy: later
// changes to the graph do not reach it), and launched: each launch runs the copy's nodes one
// after the other in an order that respects every dependency (the order they were added where
// that is one), on the launch's stream, as every stream runs here when work is issued. Host
// functions in streams (cudaLaunchHostFunc, cudaStreamAddCallback) run in stream order, that is
// at once, or as a host node under capture.
//
// Not simulated, stopping the program where called (declared at the end of this file; warpsim
// links a stub that names the call): conditional nodes, event and external-semaphore nodes,
// reading a kernel node's parameters back, device-side graph launch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

// Members named gridDim and blockDim, as CUDA names them: the shim's built-in variables are
// macros (keywords.hpp), set aside for the declaration. Host code that names them
// (`params.gridDim = dim3(n);`) is renamed by the runner to warpsim_host_gridDim (runner.hpp:
// rename_host_builtins), the other name of the same member (as in cudaLaunchConfig_t).
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
struct cudaKernelNodeParams {
  void* func;
  union {
    dim3 gridDim;
    dim3 warpsim_host_gridDim;
  };
  union {
    dim3 blockDim;
    dim3 warpsim_host_blockDim;
  };
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
  // The unions take the aggregate's initialisations (`= {0}`, `= {}`, every field in order).
  cudaKernelNodeParams(void* f = nullptr, dim3 grid = dim3(), dim3 block = dim3(),
                       unsigned int shared = 0, void** params = nullptr, void** more = nullptr)
      : func(f), gridDim(grid), blockDim(block), sharedMemBytes(shared), kernelParams(params),
        extra(more) {}
};
#pragma pop_macro("gridDim")
#pragma pop_macro("blockDim")
struct cudaMemsetParams {
  void* dst;
  std::size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  std::size_t width;
  std::size_t height;
};
using cudaHostFn_t = void (*)(void*);
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};
using cudaStreamCallback_t = void (*)(cudaStream_t, cudaError_t, void*);

enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  cudaGraphExecUpdateErrorAttributesChanged = 0x8
};
struct cudaGraphExecUpdateResultInfo_st {
  cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
};
using cudaGraphExecUpdateResultInfo = cudaGraphExecUpdateResultInfo_st;
struct cudaGraphEdgeData_st {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
};
using cudaGraphEdgeData = cudaGraphEdgeData_st;
enum cudaGraphInstantiateFlags {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
  cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4,
  cudaGraphInstantiateFlagUseNodePriority = 8
};
enum cudaGraphDebugDotFlags {
  cudaGraphDebugDotFlagsVerbose = 1 << 0,
  cudaGraphDebugDotFlagsKernelNodeParams = 1 << 2,
  cudaGraphDebugDotFlagsMemcpyNodeParams = 1 << 3,
  cudaGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
  cudaGraphDebugDotFlagsHostNodeParams = 1 << 5,
  cudaGraphDebugDotFlagsEventNodeParams = 1 << 6,
  cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
  cudaGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8,
  cudaGraphDebugDotFlagsKernelNodeAttributes = 1 << 9,
  cudaGraphDebugDotFlagsHandles = 1 << 10,
  cudaGraphDebugDotFlagsConditionalNodeParams = 1 << 15
};
enum cudaGraphMemAttributeType {
  cudaGraphMemAttrUsedMemCurrent = 0x0,
  cudaGraphMemAttrUsedMemHigh = 0x1,
  cudaGraphMemAttrReservedMemCurrent = 0x2,
  cudaGraphMemAttrReservedMemHigh = 0x3
};
enum cudaStreamUpdateCaptureDependenciesFlags {
  cudaStreamAddCaptureDependencies = 0x0,
  cudaStreamSetCaptureDependencies = 0x1
};

// Conditional nodes (declared so that programs compile; creating one stops the program).
using cudaGraphConditionalHandle = unsigned long long;
enum cudaGraphConditionalHandleFlags { cudaGraphCondAssignDefault = 1 };
enum cudaGraphConditionalNodeType {
  cudaGraphCondTypeIf = 0,
  cudaGraphCondTypeWhile = 1,
  cudaGraphCondTypeSwitch = 2
};
struct cudaConditionalNodeParams {
  cudaGraphConditionalHandle handle;
  cudaGraphConditionalNodeType type;
  unsigned int size;
  cudaGraph_t* phGraph_out;
};
struct cudaChildGraphNodeParams {
  cudaGraph_t graph;
};
struct cudaMemFreeNodeParams {
  void* dptr;
};
// An aggregate, as in CUDA: `cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};` names the type
// and zeroes the rest (the union's initializer stands in for cudaKernelNodeParams' constructor).
struct cudaGraphNodeParams {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  int reserved0[3] = {};
  union {
    long long reserved1[29] = {};
    cudaKernelNodeParams kernel;
    cudaMemsetParams memset;
    cudaHostNodeParams host;
    cudaChildGraphNodeParams graph;
    cudaConditionalNodeParams conditional;
    cudaMemAllocNodeParams alloc;
    cudaMemFreeNodeParams free;
  };
  long long reserved2 = 0;
};

namespace warpsim::shim {

// The new node's dependencies must be nodes of `graph`.
inline bool valid_dependencies(cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                               std::size_t count) {
  if (count != 0 && dependencies == nullptr) return false;
  for (std::size_t i = 0; i < count; ++i)
    if (!graph->holds(dependencies[i])) return false;
  return true;
}

// A kernel node's work from its parameters (the arguments are read now); null work for a kernel
// that is no registered kernel stops the program there.
inline NodeWork kernel_node_work(const cudaKernelNodeParams& p, const char* api, const char* file,
                                 unsigned line) {
  if (p.extra != nullptr)
    warpsim_not_simulated_at("kernel arguments passed through `extra`", api, file, line);
  const RegisteredKernel& kernel = registered_kernel_at(
      p.func,
      "a kernel passed as void* that warpsim did not see defined (a template's instantiation, "
      "or a kernel of a library)",
      api, file, line);
  return kernel.bind(p.func, kernel.name, p.warpsim_host_gridDim, p.warpsim_host_blockDim,
                     p.sharedMemBytes, false, p.kernelParams, file, line);
}

inline NodeWork memset_node_work(const cudaMemsetParams& p) {
  return [p](cudaStream_t) -> int {
    if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return cudaErrorInvalidValue;
    if (p.dst == nullptr) return cudaErrorInvalidValue;
    const std::size_t row_bytes = p.width * p.elementSize;
    if (p.height > 1 && p.pitch < row_bytes) return cudaErrorInvalidPitchValue;
    for (std::size_t row = 0; row < p.height; ++row) {
      char* out = static_cast<char*>(p.dst) + row * p.pitch;
      for (std::size_t i = 0; i < p.width; ++i)
        std::memcpy(out + i * p.elementSize, &p.value, p.elementSize);  // little-endian
    }
    return cudaSuccess;
  };
}

// Runs `graph`'s nodes in `order` on `stream`; the first error stops the launch.
inline int run_graph(const CUgraph_st& graph, CUstream_st* stream) {
  struct InGraph {
    InGraph() { ++graph_runs_in_progress(); }
    ~InGraph() { --graph_runs_in_progress(); }
    InGraph(const InGraph&) = delete;
    InGraph& operator=(const InGraph&) = delete;
  } in_graph;
  for (CUgraphNode_st* node : graph.topological_order()) {
    int status = cudaSuccess;
    if (node->work) {
      status = node->work(stream);
    } else if (node->child) {
      status = run_graph(*node->child, stream);
    } else if (node->allocation) {
      status = allocate_graph_memory(node->allocation->address);
    } else if (node->type == cudaGraphNodeTypeMemFree) {
      status = free_graph_memory(node->freed) ? cudaSuccess : cudaErrorInvalidValue;
    }
    if (status != cudaSuccess) return status;
  }
  return cudaSuccess;
}

template <class Make>
cudaError_t add_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                     std::size_t count, cudaGraphNodeType type, Make make) {
  if (node == nullptr || graph == nullptr || !valid_dependencies(graph, dependencies, count))
    return cudaErrorInvalidValue;
  CUgraphNode_st made;
  const cudaError_t status = make(made);
  if (status != cudaSuccess) return status;
  *node = graph->add(type, dependencies, count);
  (*node)->work = std::move(made.work);
  (*node)->child = std::move(made.child);
  (*node)->allocation = std::move(made.allocation);
  (*node)->freed = made.freed;
  return cudaSuccess;
}

}  // namespace warpsim::shim

struct CUgraphExec_st {
  std::unique_ptr<CUgraph_st> graph;  // the instantiated copy
};

// ---- graphs and their nodes

inline cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
  if (graph == nullptr || flags != 0) return cudaErrorInvalidValue;
  *graph = new CUgraph_st;
  return cudaSuccess;
}
inline cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (graph == nullptr) return cudaErrorInvalidValue;
  delete graph;
  return cudaSuccess;
}
inline cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                          const cudaGraphNode_t* dependencies, std::size_t count,
                                          const cudaKernelNodeParams* params,
                                          const char* file = __builtin_FILE(),
                                          unsigned line = __builtin_LINE()) {
  if (params == nullptr) return cudaErrorInvalidValue;
  return ::warpsim::shim::add_node(
      node, graph, dependencies, count, cudaGraphNodeTypeKernel, [&](CUgraphNode_st& made) {
        made.work = ::warpsim::shim::kernel_node_work(*params, "cudaGraphAddKernelNode", file, line);
        return made.work ? cudaSuccess : cudaErrorInvalidValue;
      });
}
inline cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                const cudaKernelNodeParams* params,
                                                const char* file = __builtin_FILE(),
                                                unsigned line = __builtin_LINE()) {
  if (node == nullptr || params == nullptr || node->type != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  auto work =
      ::warpsim::shim::kernel_node_work(*params, "cudaGraphKernelNodeSetParams", file, line);
  if (!work) return cudaErrorInvalidValue;
  node->work = std::move(work);
  return cudaSuccess;
}
inline cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                          const cudaGraphNode_t* dependencies, std::size_t count,
                                          const cudaMemcpy3DParms* params) {
  if (params == nullptr) return cudaErrorInvalidValue;
  return ::warpsim::shim::add_node(  // CUDA arrays on either side too (cuda_arrays.hpp)
      node, graph, dependencies, count, cudaGraphNodeTypeMemcpy, [&](CUgraphNode_st& made) {
        made.work = [copy = *params](cudaStream_t) { return cudaMemcpy3D(&copy); };
        return cudaSuccess;
      });
}
inline cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, std::size_t count,
                                            void* destination, const void* source,
                                            std::size_t bytes, cudaMemcpyKind kind) {
  return ::warpsim::shim::add_node(
      node, graph, dependencies, count, cudaGraphNodeTypeMemcpy, [&](CUgraphNode_st& made) {
        made.work = [=](cudaStream_t) { return cudaMemcpy(destination, source, bytes, kind); };
        return cudaSuccess;
      });
}
inline cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                          const cudaGraphNode_t* dependencies, std::size_t count,
                                          const cudaMemsetParams* params) {
  if (params == nullptr) return cudaErrorInvalidValue;
  return ::warpsim::shim::add_node(node, graph, dependencies, count, cudaGraphNodeTypeMemset,
                                   [&](CUgraphNode_st& made) {
                                     made.work = ::warpsim::shim::memset_node_work(*params);
                                     return cudaSuccess;
                                   });
}
inline cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                        const cudaGraphNode_t* dependencies, std::size_t count,
                                        const cudaHostNodeParams* params) {
  if (params == nullptr || params->fn == nullptr) return cudaErrorInvalidValue;
  return ::warpsim::shim::add_node(
      node, graph, dependencies, count, cudaGraphNodeTypeHost, [&](CUgraphNode_st& made) {
        made.work = [p = *params](cudaStream_t) {
          p.fn(p.userData);
          return cudaSuccess;
        };
        return cudaSuccess;
      });
}
inline cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                         const cudaGraphNode_t* dependencies, std::size_t count) {
  return ::warpsim::shim::add_node(node, graph, dependencies, count, cudaGraphNodeTypeEmpty,
                                   [](CUgraphNode_st&) { return cudaSuccess; });
}
inline cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                              const cudaGraphNode_t* dependencies,
                                              std::size_t count, cudaGraph_t child) {
  if (child == nullptr) return cudaErrorInvalidValue;
  return ::warpsim::shim::add_node(node, graph, dependencies, count, cudaGraphNodeTypeGraph,
                                   [&](CUgraphNode_st& made) {
                                     made.child = child->clone();
                                     return cudaSuccess;
                                   });
}
// The allocation's address is fixed now and handed back in params->dptr; each launch of the
// graph allocates it there (a free node, cudaFree or cudaFreeAsync frees it).
inline cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                            const cudaGraphNode_t* dependencies, std::size_t count,
                                            cudaMemAllocNodeParams* params) {
  if (params == nullptr || params->bytesize == 0) return cudaErrorInvalidValue;
  if (params->poolProps.allocType != cudaMemAllocationTypePinned) return cudaErrorInvalidValue;
  if (params->poolProps.location.type != cudaMemLocationTypeDevice ||
      params->poolProps.location.id != 0)
    return cudaErrorInvalidDevice;
  return ::warpsim::shim::add_node(
      node, graph, dependencies, count, cudaGraphNodeTypeMemAlloc, [&](CUgraphNode_st& made) {
        made.allocation = ::warpsim::shim::new_graph_allocation(params->bytesize);
        if (made.allocation == nullptr) return cudaErrorMemoryAllocation;
        params->dptr = made.allocation->address;
        return cudaSuccess;
      });
}
inline cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                           const cudaGraphNode_t* dependencies, std::size_t count,
                                           void* address) {
  return ::warpsim::shim::add_node(
      node, graph, dependencies, count, cudaGraphNodeTypeMemFree, [&](CUgraphNode_st& made) {
        auto& memory = ::warpsim::shim::GraphMemory::instance();
        std::lock_guard<std::mutex> lock(memory.mutex);
        if (memory.find(address) == nullptr) return cudaErrorInvalidValue;
        made.freed = address;
        return cudaSuccess;
      });
}
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                            const cudaGraphNode_t* to,
                                            const cudaGraphEdgeData* /*edges*/,
                                            std::size_t count) {
  if (graph == nullptr || (count != 0 && (from == nullptr || to == nullptr)))
    return cudaErrorInvalidValue;
  for (std::size_t i = 0; i < count; ++i) {
    if (!graph->holds(from[i]) || !graph->holds(to[i]) || from[i] == to[i])
      return cudaErrorInvalidValue;
    auto& deps = to[i]->dependencies;
    if (std::find(deps.begin(), deps.end(), from[i]) == deps.end()) deps.push_back(from[i]);
  }
  return cudaSuccess;
}
// CUDA 12's form, without edge data.
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                            const cudaGraphNode_t* to, std::size_t count) {
  return cudaGraphAddDependencies(graph, from, to, nullptr, count);
}
inline cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (node == nullptr || type == nullptr) return cudaErrorInvalidValue;
  *type = node->type;
  return cudaSuccess;
}
// With `nodes` null, the count; else up to *count nodes, the rest of the array nulls.
inline cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes,
                                     std::size_t* count) {
  if (graph == nullptr || count == nullptr) return cudaErrorInvalidValue;
  if (nodes == nullptr) {
    *count = graph->nodes.size();
    return cudaSuccess;
  }
  std::size_t filled = 0;
  for (; filled < *count && filled < graph->nodes.size(); ++filled)
    nodes[filled] = graph->nodes[filled].get();
  for (std::size_t i = filled; i < *count; ++i) nodes[i] = nullptr;
  *count = filled;
  return cudaSuccess;
}
inline cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes,
                                         std::size_t* count) {
  if (graph == nullptr || count == nullptr) return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> roots;
  for (const auto& node : graph->nodes)
    if (node->dependencies.empty()) roots.push_back(node.get());
  if (nodes == nullptr) {
    *count = roots.size();
    return cudaSuccess;
  }
  std::size_t filled = 0;
  for (; filled < *count && filled < roots.size(); ++filled) nodes[filled] = roots[filled];
  for (std::size_t i = filled; i < *count; ++i) nodes[i] = nullptr;
  *count = filled;
  return cudaSuccess;
}
inline cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t graph) {
  if (clone == nullptr || graph == nullptr) return cudaErrorInvalidValue;
  *clone = graph->clone().release();
  return cudaSuccess;
}
// A graph as Graphviz text: one box per node (its type), an arrow per dependency.
inline cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int) {
  if (graph == nullptr || path == nullptr) return cudaErrorInvalidValue;
  std::FILE* out = std::fopen(path, "w");
  if (out == nullptr) return cudaErrorOperatingSystem;
  static const char* const kNames[] = {"kernel",   "memcpy",        "memset",
                                       "host",     "child graph",   "empty",
                                       "wait event", "event record", "semaphore signal",
                                       "semaphore wait", "mem alloc", "mem free",
                                       "batch memop", "conditional"};
  std::fprintf(out, "digraph cudaGraph {\n");
  for (const auto& node : graph->nodes) {
    const unsigned type = static_cast<unsigned>(node->type);
    std::fprintf(out, "  node%zu [shape=box label=\"%zu: %s\"];\n", node->index, node->index,
                 type < sizeof kNames / sizeof kNames[0] ? kNames[type] : "node");
    for (const CUgraphNode_st* d : node->dependencies)
      std::fprintf(out, "  node%zu -> node%zu;\n", d->index, node->index);
  }
  std::fprintf(out, "}\n");
  return std::fclose(out) == 0 ? cudaSuccess : cudaErrorOperatingSystem;
}

// ---- executable graphs

inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                        unsigned long long flags = 0) {
  if (exec == nullptr || graph == nullptr) return cudaErrorInvalidValue;
  if (flags & cudaGraphInstantiateFlagDeviceLaunch) return cudaErrorNotSupported;
  if (!graph->nodes.empty() && graph->topological_order().empty()) return cudaErrorInvalidValue;
  *exec = new CUgraphExec_st{graph->clone()};
  return cudaSuccess;
}
inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                 unsigned long long flags = 0) {
  return cudaGraphInstantiate(exec, graph, flags);
}
// cuda_runtime.h's C++ overload of CUDA 11's form (samples still call it).
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                        cudaGraphNode_t* error_node, char* log,
                                        std::size_t log_size) {
  if (error_node != nullptr) *error_node = nullptr;
  if (log != nullptr && log_size > 0) log[0] = '\0';
  return cudaGraphInstantiate(exec, graph, 0ull);
}
inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  if (exec == nullptr) return cudaErrorInvalidValue;
  delete exec;
  return cudaSuccess;
}
// Runs the graph now on `stream`; on a capturing stream, becomes a child-graph node.
inline cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (exec == nullptr) return cudaErrorInvalidValue;
  if (::warpsim::shim::is_capturing(stream)) {
    ::warpsim::shim::capture_node(stream, cudaGraphNodeTypeGraph)->child = exec->graph->clone();
    return cudaSuccess;
  }
  return static_cast<cudaError_t>(::warpsim::shim::run_graph(*exec->graph, stream));
}
inline cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
  return exec == nullptr ? cudaErrorInvalidValue : cudaSuccess;
}
// `node` is a node of the graph `exec` was instantiated from: its copy in `exec` changes.
inline cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                    const cudaKernelNodeParams* params,
                                                    const char* file = __builtin_FILE(),
                                                    unsigned line = __builtin_LINE()) {
  if (exec == nullptr || node == nullptr || params == nullptr) return cudaErrorInvalidValue;
  if (node->index >= exec->graph->nodes.size()) return cudaErrorInvalidValue;
  CUgraphNode_st& copy = *exec->graph->nodes[node->index];
  if (copy.type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
  auto work =
      ::warpsim::shim::kernel_node_work(*params, "cudaGraphExecKernelNodeSetParams", file, line);
  if (!work) return cudaErrorInvalidValue;
  copy.work = std::move(work);
  return cudaSuccess;
}
inline cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                    const cudaMemsetParams* params) {
  if (exec == nullptr || node == nullptr || params == nullptr) return cudaErrorInvalidValue;
  if (node->index >= exec->graph->nodes.size()) return cudaErrorInvalidValue;
  CUgraphNode_st& copy = *exec->graph->nodes[node->index];
  if (copy.type != cudaGraphNodeTypeMemset) return cudaErrorInvalidValue;
  copy.work = ::warpsim::shim::memset_node_work(*params);
  return cudaSuccess;
}
inline cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                  const cudaHostNodeParams* params) {
  if (exec == nullptr || node == nullptr || params == nullptr || params->fn == nullptr)
    return cudaErrorInvalidValue;
  if (node->index >= exec->graph->nodes.size()) return cudaErrorInvalidValue;
  CUgraphNode_st& copy = *exec->graph->nodes[node->index];
  if (copy.type != cudaGraphNodeTypeHost) return cudaErrorInvalidValue;
  copy.work = [p = *params](cudaStream_t) {
    p.fn(p.userData);
    return cudaSuccess;
  };
  return cudaSuccess;
}
// `graph` replaces what `exec` runs when it has the same nodes, of the same types, depending on
// each other in the same way (what CUDA requires, memory nodes apart); otherwise nothing changes
// and the result says why.
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                       cudaGraphExecUpdateResultInfo* info) {
  if (exec == nullptr || graph == nullptr || info == nullptr) return cudaErrorInvalidValue;
  *info = {cudaGraphExecUpdateSuccess, nullptr, nullptr};
  const CUgraph_st& current = *exec->graph;
  if (current.nodes.size() != graph->nodes.size()) {
    info->result = cudaGraphExecUpdateErrorTopologyChanged;
    return cudaErrorGraphExecUpdateFailure;
  }
  for (std::size_t i = 0; i < graph->nodes.size(); ++i) {
    const CUgraphNode_st& a = *current.nodes[i];
    CUgraphNode_st& b = *graph->nodes[i];
    bool same_edges = a.dependencies.size() == b.dependencies.size();
    for (std::size_t d = 0; same_edges && d < a.dependencies.size(); ++d)
      same_edges = a.dependencies[d]->index == b.dependencies[d]->index;
    if (!same_edges) {
      info->result = cudaGraphExecUpdateErrorTopologyChanged;
      info->errorNode = &b;
      return cudaErrorGraphExecUpdateFailure;
    }
    if (a.type != b.type) {
      info->result = cudaGraphExecUpdateErrorNodeTypeChanged;
      info->errorNode = &b;
      return cudaErrorGraphExecUpdateFailure;
    }
    if (a.type == cudaGraphNodeTypeMemAlloc || a.type == cudaGraphNodeTypeMemFree) {
      info->result = cudaGraphExecUpdateErrorNotSupported;
      info->errorNode = &b;
      return cudaErrorGraphExecUpdateFailure;
    }
  }
  exec->graph = graph->clone();
  return cudaSuccess;
}
// cuda_runtime.h's C++ overload of CUDA 11's form.
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                       cudaGraphNode_t* error_node,
                                       cudaGraphExecUpdateResult* result) {
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t status = cudaGraphExecUpdate(exec, graph, &info);
  if (error_node != nullptr) *error_node = info.errorNode;
  if (result != nullptr) *result = info.result;
  return status;
}

// ---- graph memory: the totals of graph allocations (stream_capture.hpp: GraphMemory)

inline cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attribute,
                                                  void* value) {
  if (value == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  auto& memory = ::warpsim::shim::GraphMemory::instance();
  std::lock_guard<std::mutex> lock(memory.mutex);
  std::uint64_t answer = 0;
  switch (attribute) {
    case cudaGraphMemAttrUsedMemCurrent: answer = memory.used(); break;
    case cudaGraphMemAttrUsedMemHigh: answer = memory.used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: answer = memory.reserved(); break;
    case cudaGraphMemAttrReservedMemHigh: answer = memory.reserved_high; break;
    default: return cudaErrorInvalidValue;
  }
  *static_cast<std::uint64_t*>(value) = answer;
  return cudaSuccess;
}
// Only the high watermarks may be set, and only to 0 (back to the current values).
inline cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attribute,
                                                  void* value) {
  if (value == nullptr || *static_cast<std::uint64_t*>(value) != 0) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  auto& memory = ::warpsim::shim::GraphMemory::instance();
  std::lock_guard<std::mutex> lock(memory.mutex);
  if (attribute == cudaGraphMemAttrUsedMemHigh) {
    memory.used_high = memory.used();
  } else if (attribute == cudaGraphMemAttrReservedMemHigh) {
    memory.reserved_high = memory.reserved();
  } else {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
// The physical memory of graph allocations that are not allocated now goes back (their addresses
// stay valid for the graphs' next launches, which back them again).
inline cudaError_t cudaDeviceGraphMemTrim(int device) {
  if (device != 0) return cudaErrorInvalidDevice;
  auto& memory = ::warpsim::shim::GraphMemory::instance();
  std::lock_guard<std::mutex> lock(memory.mutex);
  memory.trim();
  return cudaSuccess;
}

// ---- stream capture

inline cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode) {
  if (stream == nullptr || reinterpret_cast<std::uintptr_t>(stream) <= 2)
    return cudaErrorStreamCaptureUnsupported;  // the legacy null stream cannot be captured
  if (stream->capture != nullptr) return cudaErrorIllegalState;
  static unsigned long long next_id = 1;  // capture ids: unique in the program
  auto* session = new ::warpsim::shim::CaptureSession;
  session->origin = stream;
  session->id = next_id++;
  session->streams.push_back(stream);
  stream->capture = session;
  stream->capture_tips.clear();
  return cudaSuccess;
}
inline cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (graph == nullptr) return cudaErrorInvalidValue;
  if (!::warpsim::shim::is_capturing(stream)) return cudaErrorIllegalState;
  ::warpsim::shim::CaptureSession* session = stream->capture;
  if (session->origin != stream) return cudaErrorStreamCaptureUnmatched;
  for (CUstream_st* member : session->streams) {
    member->capture = nullptr;
    member->capture_tips.clear();
  }
  session->ended = true;
  *graph = session->graph.release();
  return cudaSuccess;
}
inline cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (status == nullptr) return cudaErrorInvalidValue;
  *status = ::warpsim::shim::is_capturing(stream) ? cudaStreamCaptureStatusActive
                                                  : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                            unsigned long long* id = nullptr,
                                            cudaGraph_t* graph = nullptr,
                                            const cudaGraphNode_t** dependencies = nullptr,
                                            const cudaGraphEdgeData** edges = nullptr,
                                            std::size_t* count = nullptr) {
  if (status == nullptr) return cudaErrorInvalidValue;
  const bool capturing = ::warpsim::shim::is_capturing(stream);
  *status = capturing ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (!capturing) return cudaSuccess;
  if (id != nullptr) *id = stream->capture->id;
  if (graph != nullptr) *graph = stream->capture->graph.get();
  if (dependencies != nullptr) *dependencies = stream->capture_tips.data();
  if (edges != nullptr) *edges = nullptr;  // every edge is a full dependency
  if (count != nullptr) *count = stream->capture_tips.size();
  return cudaSuccess;
}
inline cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                       cudaGraphNode_t* dependencies,
                                                       const cudaGraphEdgeData* /*edges*/,
                                                       std::size_t count, unsigned int flags = 0) {
  if (!::warpsim::shim::is_capturing(stream)) return cudaErrorIllegalState;
  if (!::warpsim::shim::valid_dependencies(stream->capture->graph.get(), dependencies, count))
    return cudaErrorInvalidValue;
  if (flags == cudaStreamSetCaptureDependencies) stream->capture_tips.clear();
  for (std::size_t i = 0; i < count; ++i) stream->capture_tips.push_back(dependencies[i]);
  return cudaSuccess;
}
inline cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  return mode == nullptr ? cudaErrorInvalidValue : cudaSuccess;
}

// ---- host functions in streams: run in stream order (at once), a host node under capture

inline cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
  if (fn == nullptr) return cudaErrorInvalidValue;
  return static_cast<cudaError_t>(
      ::warpsim::shim::in_stream(stream, cudaGraphNodeTypeHost, [fn, data](cudaStream_t) {
        fn(data);
        return cudaSuccess;
      }));
}
// The callback gets the stream's status: the sticky error after a device assert, else success.
// CUDA refuses callbacks in a capture (cudaLaunchHostFunc is the capturable form).
inline cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                         void* data, unsigned int flags) {
  if (callback == nullptr || flags != 0) return cudaErrorInvalidValue;
  if (::warpsim::shim::is_capturing(stream)) return cudaErrorStreamCaptureUnsupported;
  callback(stream, static_cast<cudaError_t>(::warpsim::program::sticky_error()), data);
  return cudaSuccess;
}

// Not simulated: each stops the program where it is called, naming it.
extern "C" {
cudaError_t cudaGraphAddNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                             const cudaGraphEdgeData*, std::size_t, cudaGraphNodeParams*);
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle*, cudaGraph_t,
                                             unsigned int = 0, unsigned int = 0);
void cudaGraphSetConditional(cudaGraphConditionalHandle, unsigned int);
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t, cudaGraph_t, const cudaGraphNode_t*,
                                          const cudaGraphEdgeData*, std::size_t,
                                          cudaStreamCaptureMode);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t, cudaKernelNodeParams*);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                        std::size_t, cudaEvent_t);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*,
                                      std::size_t, cudaEvent_t);
}
