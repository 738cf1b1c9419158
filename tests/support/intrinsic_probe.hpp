// A kernel file generated from the intrinsic table: one call of every overload of every traced
// intrinsic an architecture has, each result's type checked at compile time. The tests compile it
// against the CUDA shim and run it (each call must record its own op and type), and compile it with
// NVRTC (CUDA must declare every overload the table lists). A missing overload stops the compile at
// the call, with the overload's label in the static_assert message or the compiler's own.
#pragma once

#include <string>
#include <vector>

#include "warpsim/intrinsic_signature.hpp"

namespace warpsim::test {

inline constexpr const char* kProbeKernel = "warpsim_probe_intrinsics";

struct ProbeCall {
  Op op{};
  ValueType type = ValueType::none;
  std::string label;  // "__shfl_sync(float)"
};

struct IntrinsicProbe {
  std::string source;            // kernel kProbeKernel(int* out), one block of 32 threads
  std::vector<ProbeCall> calls;  // the calls it makes, in order: one trace step each
};

// A local named and typed as the parameter, holding a value every lane may legally pass.
inline std::string probe_local(const CudaParameter& p) {
  switch (p.role) {
    case ParameterRole::mask:
      return "const unsigned int mask = 0xffffffffu;";
    case ParameterRole::operand:
      return "const " + p.type + " " + p.name + "{};";
    case ParameterRole::argument:
      return "const " + p.type + " " + p.name + " = 1;";
    case ParameterRole::width:
      return "const int width = 32;";
    case ParameterRole::pred:
      return "int pred_value = 0; int* const pred = &pred_value;";
  }
  return {};
}

// The probe for architecture `sm` (major * 10 + minor): the rows whose min_sm it reaches.
inline IntrinsicProbe intrinsic_probe(int sm = 90) {
  IntrinsicProbe probe;
  std::string& s = probe.source;
  s = "// Generated from the intrinsic table by tests/support/intrinsic_probe.hpp.\n"
      "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
      "template <class A, class B> struct WarpsimSame { static constexpr bool value = false; };\n"
      "template <class A> struct WarpsimSame<A, A> { static constexpr bool value = true; };\n";
  s += "__global__ void " + std::string(kProbeKernel) + "(int* out) {\n";
  for (const IntrinsicInfo& info : intrinsic_table()) {
    if (info.min_sm > sm) continue;
    for (const CudaOverload& o : cuda_overloads(info)) {
      s += "  {  // " + o.label() + "\n";
      for (const CudaParameter& p : o.parameters) s += "    " + probe_local(p) + "\n";
      s += "    static_assert(WarpsimSame<decltype(" + o.call() + "), " + o.result_type +
           ">::value, \"" + o.label() + " must return " + o.result_type + "\");\n";
      s += "    " + o.call() + ";\n  }\n";
      probe.calls.push_back({*info.op, o.operand.type, o.label()});
    }
  }
  s += "  out[threadIdx.x] = 1;\n}\n";
  return probe;
}

}  // namespace warpsim::test
