// CUDA's parameter lists, spelled from the intrinsic table's rows.
#include "warpsim/intrinsic_signature.hpp"

namespace warpsim {
namespace {

std::string result_type(const IntrinsicInfo& info, const OperandType& operand) {
  switch (info.result) {
    case ResultKind::value:
      return std::string(operand.cuda_name);
    case ResultKind::lane_mask:
      return "unsigned int";
    case ResultKind::predicate:
    case ResultKind::count:
      return "int";
    case ResultKind::none:
      break;
  }
  return "void";
}

CudaOverload overload(const IntrinsicInfo& info, const OperandType& operand) {
  using R = ParameterRole;
  CudaOverload o;
  o.intrinsic = &info;
  o.operand = operand;
  o.result_type = result_type(info, operand);
  if (info.mask != MaskParameter::none) {
    o.parameters.push_back({R::mask, "unsigned int", "mask",
                            info.mask == MaskParameter::optional ? "0xffffffffu" : ""});
  }
  if (info.operand != OperandKind::none) {
    o.parameters.push_back({R::operand, std::string(operand.cuda_name),
                            info.operand == OperandKind::predicate ? "predicate" : "value", ""});
  }
  if (!info.argument.name.empty()) {
    o.parameters.push_back(
        {R::argument, std::string(info.argument.cuda_type), std::string(info.argument.name), ""});
  }
  if (info.width) o.parameters.push_back({R::width, "int", "width", "warpSize"});
  if (info.pred_out) o.parameters.push_back({R::pred, "int*", "pred", ""});
  return o;
}

}  // namespace

std::string CudaOverload::declaration(const std::string& name) const {
  std::string text = result_type + " " + (name.empty() ? std::string(intrinsic->name) : name) + "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const CudaParameter& p = parameters[i];
    if (i > 0) text += ", ";
    text += p.type + " " + p.name;
    if (!p.default_value.empty()) text += " = " + p.default_value;
  }
  return text + ")";
}

std::string CudaOverload::call() const {
  std::string text = std::string(intrinsic->name) + "(";
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (i > 0) text += ", ";
    text += parameters[i].name;
  }
  return text + ")";
}

std::string CudaOverload::label() const {
  return std::string(intrinsic->name) + "(" + std::string(operand.cuda_name) + ")";
}

std::vector<CudaOverload> cuda_overloads(const IntrinsicInfo& info) {
  std::vector<CudaOverload> overloads;
  if (!info.op) return overloads;
  if (info.operand_types.empty()) overloads.push_back(overload(info, OperandType{}));
  for (const OperandType& operand : info.operand_types)
    overloads.push_back(overload(info, operand));
  return overloads;
}

}  // namespace warpsim
