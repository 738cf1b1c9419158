#include "warpsim/launch_record.hpp"

#include <nlohmann/json.hpp>

namespace warpsim::program {
namespace {

using json = nlohmann::ordered_json;

json dims(Dim3 d) { return json::array({d.x, d.y, d.z}); }

Dim3 dims_of(const json& value) {
  if (!value.is_array() || value.size() != 3) return {};
  return {value[0].get<std::uint32_t>(), value[1].get<std::uint32_t>(),
          value[2].get<std::uint32_t>()};
}

}  // namespace

std::string to_json_line(const LaunchRecord& r) {
  json out{{"index", r.index},
           {"kernel", r.kernel},
           {"file", r.file},
           {"line", r.line},
           {"grid", dims(r.grid)},
           {"block", dims(r.block)},
           {"shared_bytes", r.shared_bytes},
           {"stream", r.stream},
           {"status", r.status},
           {"message", r.message},
           {"steps", r.steps},
           {"diagnostics", r.diagnostics},
           {"trace_file", r.trace_file}};
  if (r.parent) {
    out["parent"] = *r.parent;
    out["depth"] = r.depth;
  }
  if (!r.host_pointer_args.empty()) out["host_pointer_args"] = r.host_pointer_args;
  if (r.status == "crashed") {
    out["signal"] = r.signal;
    out["crash_block"] = r.crash_block;
    out["crash_thread"] = r.crash_thread;
    out["crash_file"] = r.crash_file;
    out["crash_line"] = r.crash_line;
    if (!r.crash_memory.empty()) out["crash_memory"] = r.crash_memory;
  }
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<LaunchRecord> launch_record_from_json(std::string_view line) {
  try {
    const json in = json::parse(line);
    LaunchRecord r;
    r.index = in.at("index").get<std::uint64_t>();
    r.status = in.at("status").get<std::string>();
    r.kernel = in.value("kernel", "");
    r.file = in.value("file", "");
    r.line = in.value("line", 0u);
    if (in.contains("grid")) r.grid = dims_of(in["grid"]);
    if (in.contains("block")) r.block = dims_of(in["block"]);
    r.shared_bytes = in.value("shared_bytes", std::uint64_t{0});
    r.stream = in.value("stream", std::uint64_t{0});
    if (in.contains("parent")) r.parent = in["parent"].get<std::uint64_t>();
    r.depth = in.value("depth", 0u);
    r.message = in.value("message", "");
    r.steps = in.value("steps", std::uint64_t{0});
    r.diagnostics = in.value("diagnostics", std::uint64_t{0});
    r.trace_file = in.value("trace_file", "");
    if (in.contains("host_pointer_args")) {
      r.host_pointer_args = in["host_pointer_args"].get<std::vector<std::uint32_t>>();
    }
    r.signal = in.value("signal", 0);
    r.crash_block = in.value("crash_block", std::uint64_t{0});
    r.crash_thread = in.value("crash_thread", 0u);
    r.crash_file = in.value("crash_file", "");
    r.crash_line = in.value("crash_line", 0u);
    r.crash_memory = in.value("crash_memory", "");
    return r;
  } catch (const json::exception&) {
    return std::nullopt;  // a line cut short by a crash
  }
}

}  // namespace warpsim::program
