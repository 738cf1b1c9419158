// CUDA's declarations of the intrinsic table's rows, spelled as C++ for code that is generated
// from the table: the device-side trace wrappers and the vector kernels (gpu/), and the probe
// kernel the tests compile against the shim and NVRTC.
//
//   for (const CudaOverload& o : cuda_overloads(intrinsic_for(Op::shfl_up)))
//     o.declaration("f")  // "float f(unsigned int mask, float value, unsigned int delta,
//                         //  int width = warpSize)"
//     o.call()            // "__shfl_up_sync(mask, value, delta, width)"
#pragma once

#include <string>
#include <vector>

#include "warpsim/intrinsic_table.hpp"

namespace warpsim {

// What a parameter is for; generated code fills each from its own data.
enum class ParameterRole : std::uint8_t { mask, operand, argument, width, pred };

struct CudaParameter {
  ParameterRole role = ParameterRole::mask;
  std::string type;           // "unsigned int", "float", "int*", ...
  std::string name;           // "mask", "value", "predicate", "srcLane", "width", "pred"
  std::string default_value;  // "" when the caller must pass it
};

// One overload of one intrinsic, as CUDA declares it.
struct CudaOverload {
  const IntrinsicInfo* intrinsic = nullptr;
  OperandType operand;      // cuda_name empty when the intrinsic takes no operand
  std::string result_type;  // "void", "unsigned int", "int", or the operand's type
  std::vector<CudaParameter> parameters;

  // "RESULT NAME(PARAMETERS)", defaults included; NAME defaults to the CUDA name.
  std::string declaration(const std::string& name = {}) const;
  // "NAME(mask, value, ...)": a call passing each parameter by its own name.
  std::string call() const;
  // "__shfl_sync(float)", "__activemask()": names the overload in messages.
  std::string label() const;
};

// Every overload CUDA declares for a traced row (one with an Op): one per operand type, or one
// for an intrinsic without operand. Empty for the bit helpers.
std::vector<CudaOverload> cuda_overloads(const IntrinsicInfo& info);

}  // namespace warpsim
