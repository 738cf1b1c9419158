// Every launch's buffers of a simulated program against the GPU's (warpsim exec --gpu).
#include "warpsim/program_buffers.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <set>

#include "warpsim/device_trace.hpp"
#include "warpsim/launch_buffers.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

template <class T>
bool number(const std::string& text, T& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc{} && end == text.data() + text.size();
}

Expected<std::vector<unsigned char>> read_bytes(const std::string& path, std::uint64_t expected) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ErrorKind::file, "cannot read " + path);
  std::vector<unsigned char> bytes(expected);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(expected));
  if (static_cast<std::uint64_t>(in.gcount()) != expected || in.peek() != EOF) {
    return fail(ErrorKind::file, path + " does not hold " + std::to_string(expected) + " bytes");
  }
  return bytes;
}

std::uint64_t element_bits(const unsigned char* data, std::size_t size) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, data, std::min<std::size_t>(size, sizeof bits));  // little-endian, as CUDA's
  return bits;
}

// One element as reports print it: through the --arg element table where the type is one of its
// rows, else its bytes in hex.
std::string shown(const std::string& type, const unsigned char* data, std::size_t size) {
  if (const std::optional<ElementType> element = element_type_from_string(type);
      element && element_size(*element) == size) {
    const ShownElement s = shown_element(*element, element_bits(data, size));
    return format_element(s.bits, s.type);
  }
  static const char digits[] = "0123456789abcdef";
  std::string hex = "0x";
  for (std::size_t i = size; i-- > 0;) {  // most significant byte first
    hex += digits[data[i] >> 4];
    hex += digits[data[i] & 15];
    if (hex.size() > 34) return hex + "...";
  }
  return hex;
}

LaunchBufferComparison compare_one(const RecordedBuffer& sim, const RecordedBuffer& gpu,
                                   std::uint64_t ulp_tolerance) {
  LaunchBufferComparison c;
  c.launch = sim.launch;
  c.arg = sim.arg;
  c.type = sim.type;
  if (sim.bytes != gpu.bytes || sim.offset != gpu.offset) {
    c.problem = "the simulator's allocation has " + std::to_string(sim.bytes) +
                " bytes (the argument at byte " + std::to_string(sim.offset) + "), the GPU's " +
                std::to_string(gpu.bytes) + " (at byte " + std::to_string(gpu.offset) + ")";
    return c;
  }
  const std::size_t size = std::max<std::uint64_t>(sim.element_bytes, 1);
  c.elements = sim.bytes / size;
  if (sim.hash == gpu.hash) return c;  // identical
  if (sim.data_path.empty() || gpu.data_path.empty()) {
    c.problem = "the bytes differ (their hashes do); the buffer was too large to keep for an "
                "element-by-element comparison";
    return c;
  }
  auto a = read_bytes(sim.data_path, sim.bytes);
  auto b = read_bytes(gpu.data_path, gpu.bytes);
  if (!a || !b) {
    c.problem = (!a ? a.error() : b.error()).message;
    return c;
  }
  const std::optional<ElementType> element = element_type_from_string(sim.type);
  const ValueType floating = element == ElementType::f32   ? ValueType::f32
                             : element == ElementType::f64 ? ValueType::f64
                                                           : ValueType::none;
  for (std::uint64_t i = 0; i < c.elements; ++i) {
    const unsigned char* x = a->data() + i * size;
    const unsigned char* y = b->data() + i * size;
    if (std::memcmp(x, y, size) == 0) continue;
    if (floating != ValueType::none) {
      const std::uint64_t ulps = ulp_distance(element_bits(x, size), element_bits(y, size), floating);
      const bool nan_both = ulps == UINT64_MAX && shown(sim.type, x, size) == "nan" &&
                            shown(sim.type, y, size) == "nan";
      if (nan_both || (ulp_tolerance > 0 && ulps <= ulp_tolerance)) {
        ++c.within_tolerance;
        if (!nan_both) c.max_ulp = std::max(c.max_ulp, ulps);
        continue;
      }
      c.max_ulp = std::max(c.max_ulp, ulps);
    }
    if (c.differing++ == 0) {
      c.first_index = static_cast<std::int64_t>(i * size) - static_cast<std::int64_t>(sim.offset);
      *c.first_index /= static_cast<std::int64_t>(size);
      c.sim_value = shown(sim.type, x, size);
      c.gpu_value = shown(sim.type, y, size);
    }
  }
  if (c.differing != 0 && size <= 8) {
    std::vector<std::uint64_t> x(c.elements), y(c.elements);
    for (std::uint64_t i = 0; i < c.elements; ++i) {
      x[i] = element_bits(a->data() + i * size, size);
      y[i] = element_bits(b->data() + i * size, size);
    }
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    c.same_elements_reordered = x == y;
  }
  // The tail of an allocation that is not a whole element.
  const std::size_t tail = sim.bytes % size;
  if (tail != 0 && std::memcmp(a->data() + sim.bytes - tail, b->data() + sim.bytes - tail, tail) != 0
      && c.differing++ == 0) {
    c.sim_value = shown("bytes", a->data() + sim.bytes - tail, tail);
    c.gpu_value = shown("bytes", b->data() + sim.bytes - tail, tail);
  }
  return c;
}

}  // namespace

Expected<LaunchBufferRecording> read_launch_buffers(const std::string& dir) {
  const std::string path = dir + "/" + launch_buffers::kIndexFile;
  std::ifstream in(path);
  if (!in) return fail(ErrorKind::file, "cannot read " + path + " (no launch was recorded)");
  LaunchBufferRecording out;
  std::string line;
  for (std::uint64_t number_of_line = 1; std::getline(in, line); ++number_of_line) {
    const std::vector<std::string> f = split_tabs(line);
    const auto bad = [&] {
      return fail(ErrorKind::bad_input,
                  path + ":" + std::to_string(number_of_line) + ": not a launch or buffer line");
    };
    if (f.size() == 4 && (f[0] == "L" || f[0] == "G" || f[0] == "A")) {
      RecordedLaunch l;
      if (!number(f[1], l.launch) || !number(f[2], l.status)) return bad();
      l.kernel = f[3];
      l.in_graph = f[0] == "G";
      l.without_chevrons = f[0] == "A";
      out.launches.push_back(std::move(l));
    } else if (f.size() == 9 && f[0] == "B") {
      RecordedBuffer b;
      if (!number(f[1], b.launch) || !number(f[2], b.arg) || !number(f[4], b.element_bytes) ||
          !number(f[5], b.offset) || !number(f[6], b.bytes) || f[7].size() != 16) {
        return bad();
      }
      b.type = f[3];
      b.hash = f[7];
      if (f[8] != "-") {
        if (f[8].find('/') != std::string::npos) return bad();
        b.data_path = dir + "/" + f[8];
      }
      out.buffers.push_back(std::move(b));
    } else {
      return bad();
    }
  }
  return out;
}

Expected<ProgramBuffersComparison> compare_launch_buffers(const std::string& sim_dir,
                                                          const std::string& gpu_dir,
                                                          std::uint64_t ulp_tolerance) {
  auto sim = read_launch_buffers(sim_dir);
  if (!sim) return sim.error();
  auto gpu = read_launch_buffers(gpu_dir);
  if (!gpu) return gpu.error();
  ProgramBuffersComparison out;
  // Launches outside graphs, in order, on each side; the n-th pairs with the other's n-th.
  const auto made = [&](const LaunchBufferRecording& r, std::uint64_t& in_graphs) {
    std::vector<const RecordedLaunch*> launches;
    for (const RecordedLaunch& l : r.launches) {
      if (l.in_graph) {
        ++in_graphs;
      } else if (l.without_chevrons) {
        ++out.sim_launches_without_chevrons;
      } else {
        launches.push_back(&l);
      }
    }
    return launches;
  };
  const std::vector<const RecordedLaunch*> sim_made = made(*sim, out.sim_graph_launches);
  const std::vector<const RecordedLaunch*> gpu_made = made(*gpu, out.gpu_graph_launches);
  out.sim_launches = sim_made.size();
  out.gpu_launches = gpu_made.size();
  std::map<std::pair<std::uint64_t, unsigned>, const RecordedBuffer*> gpu_buffers;
  for (const RecordedBuffer& b : gpu->buffers) gpu_buffers[{b.launch, b.arg}] = &b;
  // The GPU's buffers that some simulator buffer is compared with.
  std::set<std::pair<std::uint64_t, unsigned>> gpu_compared;

  bool went_apart = false;
  std::size_t n = 0;
  for (; n < sim_made.size(); ++n) {
    const RecordedLaunch& l = *sim_made[n];
    const std::string where = "launch " + std::to_string(l.launch + 1) + " (" + l.kernel + ")";
    if (n >= gpu_made.size()) {
      out.problems.push_back(where + " was made in the simulator only");
      continue;
    }
    const RecordedLaunch& g = *gpu_made[n];
    if (g.kernel != l.kernel) {
      out.problems.push_back(where + " is a launch of " + g.kernel +
                             " on the GPU: the programs went different ways; the rest is not "
                             "compared");
      went_apart = true;
      break;
    }
    if (g.status != l.status) {
      out.problems.push_back(where + " ended with cudaError " + std::to_string(l.status) +
                             " in the simulator and " + std::to_string(g.status) +
                             " on the GPU");
      continue;
    }
    for (const RecordedBuffer& b : sim->buffers) {
      if (b.launch != l.launch) continue;
      const auto other = gpu_buffers.find({g.launch, b.arg});
      LaunchBufferComparison c;
      if (other == gpu_buffers.end()) {
        c.launch = b.launch;
        c.arg = b.arg;
        c.type = b.type;
        c.problem = "the GPU side found no allocation behind this argument";
      } else {
        gpu_compared.insert(other->first);
        c = compare_one(b, *other->second, ulp_tolerance);
      }
      c.kernel = l.kernel;
      out.buffers.push_back(std::move(c));
    }
  }
  if (!went_apart) {
    for (std::size_t m = sim_made.size(); m < gpu_made.size(); ++m) {
      out.problems.push_back("launch " + std::to_string(gpu_made[m]->launch + 1) +
                             " on the GPU (" + gpu_made[m]->kernel + ") was made on the GPU only");
    }
  }
  // GPU buffers of paired launches that no simulator buffer met (after a parting of ways, only
  // those of launches compared before it).
  std::set<std::uint64_t> gpu_paired;
  for (std::size_t m = 0; m < std::min(n, gpu_made.size()); ++m) gpu_paired.insert(gpu_made[m]->launch);
  for (const RecordedBuffer& b : gpu->buffers) {
    if (gpu_paired.count(b.launch) && !gpu_compared.count({b.launch, b.arg})) ++out.gpu_only_buffers;
  }
  return out;
}

std::uint64_t ProgramBuffersComparison::identical_count() const {
  return static_cast<std::uint64_t>(
      std::count_if(buffers.begin(), buffers.end(), [](const auto& b) { return b.identical(); }));
}

std::uint64_t ProgramBuffersComparison::within_tolerance_count() const {
  return static_cast<std::uint64_t>(std::count_if(
      buffers.begin(), buffers.end(), [](const auto& b) { return b.matches() && !b.identical(); }));
}

const LaunchBufferComparison* ProgramBuffersComparison::first_difference() const {
  for (const LaunchBufferComparison& b : buffers) {
    if (!b.matches()) return &b;
  }
  return nullptr;
}

bool ProgramBuffersComparison::identical() const {
  return problems.empty() && identical_count() == buffers.size();
}

bool ProgramBuffersComparison::matches() const {
  return problems.empty() && first_difference() == nullptr;
}

}  // namespace warpsim::runner
