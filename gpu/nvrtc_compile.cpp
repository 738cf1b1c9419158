#include "nvrtc_compile.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "cuda_driver.hpp"

#ifndef WARPSIM_CUDA_INCLUDE_DIRS
#error "WARPSIM_CUDA_INCLUDE_DIRS must name the toolkit's include folders, separated by '|'"
#endif

namespace warpsim::gpu {
namespace {

std::string sm_name(int sm) { return "sm_" + std::to_string(sm); }

std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

Error nvrtc_error(nvrtcResult result, const std::string& call) {
  return Error{ErrorKind::compile, "NVRTC: " + call + " failed: " + nvrtcGetErrorString(result), {}};
}

struct ProgramDeleter {
  void operator()(nvrtcProgram program) const { nvrtcDestroyProgram(&program); }
};
using ProgramHandle = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

}  // namespace

int nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return 0;
  return major * 1000 + minor * 10;
}

std::vector<int> nvrtc_supported_sms() {
  int count = 0;
  if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return {};
  std::vector<int> sms(static_cast<std::size_t>(count));
  if (nvrtcGetSupportedArchs(sms.data()) != NVRTC_SUCCESS) return {};
  std::sort(sms.begin(), sms.end());
  return sms;
}

std::vector<std::string> cuda_include_dirs() {
  std::vector<std::string> dirs;
  const std::string_view configured = WARPSIM_CUDA_INCLUDE_DIRS;
  std::size_t begin = 0;
  while (begin <= configured.size()) {
    const std::size_t end = std::min(configured.find('|', begin), configured.size());
    const std::filesystem::path dir(configured.substr(begin, end - begin));
    std::error_code ignored;
    if (!dir.empty() && std::filesystem::is_directory(dir, ignored)) {
      dirs.push_back(dir.string());
      // CUDA 13 keeps CCCL (<cuda/std/...>, <cub/...>, <thrust/...>) in a folder of its own.
      if (std::filesystem::is_directory(dir / "cccl", ignored)) dirs.push_back((dir / "cccl").string());
    }
    begin = end + 1;
  }
  return dirs;
}

Expected<CompiledProgram> nvrtc_compile(std::string_view source, const std::string& file_name,
                                        const CompileOptions& options) {
  int sm = options.sm;
  if (sm == 0) {
    auto device = probe_device();
    if (!device) return device.error();
    sm = device->sm;
  }
  const std::vector<int> supported = nvrtc_supported_sms();
  if (std::find(supported.begin(), supported.end(), sm) == supported.end()) {
    std::string range = supported.empty() ? std::string("none")
                                          : sm_name(supported.front()) + " to " + sm_name(supported.back());
    return Error{ErrorKind::bad_input,
                    "NVRTC " + version_text(nvrtc_version()) + " cannot compile for " + sm_name(sm) +
                        " (it supports " + range + ")",
                    {}};
  }

  const std::string text(source);  // NVRTC wants NUL-terminated strings
  std::vector<std::string> header_texts, header_names;
  for (const SourceHeader& header : options.headers) {
    header_names.emplace_back(header.name);
    header_texts.emplace_back(header.text);
  }
  std::vector<const char*> header_text_pointers, header_name_pointers;
  for (std::size_t i = 0; i < header_texts.size(); ++i) {
    header_text_pointers.push_back(header_texts[i].c_str());
    header_name_pointers.push_back(header_names[i].c_str());
  }
  nvrtcProgram raw = nullptr;
  if (const nvrtcResult r =
          nvrtcCreateProgram(&raw, text.c_str(), file_name.c_str(), static_cast<int>(header_texts.size()),
                             header_text_pointers.data(), header_name_pointers.data());
      r != NVRTC_SUCCESS) {
    return nvrtc_error(r, "nvrtcCreateProgram(" + file_name + ")");
  }
  const ProgramHandle program(raw);
  for (const std::string& expression : options.name_expressions) {
    if (const nvrtcResult r = nvrtcAddNameExpression(program.get(), expression.c_str()); r != NVRTC_SUCCESS) {
      return nvrtc_error(r, "nvrtcAddNameExpression(\"" + expression + "\")");
    }
  }

  std::vector<std::string> arguments;
  arguments.push_back("--gpu-architecture=" + sm_name(sm));
  for (const std::string& dir : cuda_include_dirs()) arguments.push_back("-I" + dir);
  arguments.insert(arguments.end(), options.options.begin(), options.options.end());
  std::vector<const char*> argv;
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());

  const nvrtcResult compiled = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());

  CompiledProgram out;
  out.sm = sm;
  std::size_t log_size = 0;
  if (nvrtcGetProgramLogSize(program.get(), &log_size) == NVRTC_SUCCESS && log_size > 1) {
    out.log.resize(log_size);
    if (nvrtcGetProgramLog(program.get(), out.log.data()) != NVRTC_SUCCESS) out.log.clear();
    while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  }

  if (compiled == NVRTC_ERROR_COMPILATION) {
    return Error{ErrorKind::compile,
                    "NVRTC " + version_text(nvrtc_version()) + " could not compile " + file_name + " for " + sm_name(sm),
                    out.log};
  }
  if (compiled != NVRTC_SUCCESS) {
    Error error = nvrtc_error(compiled, "nvrtcCompileProgram(" + file_name + ")");
    error.details = out.log;
    return error;
  }

  std::size_t cubin_size = 0;
  if (const nvrtcResult r = nvrtcGetCUBINSize(program.get(), &cubin_size); r != NVRTC_SUCCESS) {
    return nvrtc_error(r, "nvrtcGetCUBINSize(" + file_name + ")");
  }
  if (cubin_size == 0) {
    return Error{ErrorKind::compile, "NVRTC: produced no cubin for " + file_name + " (" + sm_name(sm) + ")", {}};
  }
  out.cubin.resize(cubin_size);
  if (const nvrtcResult r = nvrtcGetCUBIN(program.get(), out.cubin.data()); r != NVRTC_SUCCESS) {
    return nvrtc_error(r, "nvrtcGetCUBIN(" + file_name + ")");
  }
  for (const std::string& expression : options.name_expressions) {
    const char* lowered = nullptr;
    if (const nvrtcResult r = nvrtcGetLoweredName(program.get(), expression.c_str(), &lowered);
        r != NVRTC_SUCCESS || lowered == nullptr) {
      return Error{ErrorKind::compile,
                      "NVRTC: " + file_name + " has no symbol for \"" + expression + "\"" +
                          (r != NVRTC_SUCCESS ? std::string(" (") + nvrtcGetErrorString(r) + ")" : std::string()),
                      {}};
    }
    out.lowered_names.emplace_back(expression, lowered);
  }
  return out;
}

}  // namespace warpsim::gpu
