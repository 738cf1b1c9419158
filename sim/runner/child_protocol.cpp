#include "child_protocol.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

#include "warpsim/fd_io.hpp"

namespace warpsim::runner {
namespace {

struct FrameHeader {
  std::uint32_t tag;
  std::uint32_t reserved;
  std::uint64_t bytes;
};

class Writer {
 public:
  template <class T>
  void put(T value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void put(std::string_view text) {
    put<std::uint64_t>(text.size());
    out_.append(text);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : in_(bytes) {}
  template <class T>
  T get() {
    T value{};
    if (in_.size() < sizeof value) {
      ok_ = false;
      return value;
    }
    std::memcpy(&value, in_.data(), sizeof value);
    in_.remove_prefix(sizeof value);
    return value;
  }
  std::string text() {
    const auto size = get<std::uint64_t>();
    if (!ok_ || in_.size() < size) {
      ok_ = false;
      return {};
    }
    std::string out(in_.substr(0, size));
    in_.remove_prefix(size);
    return out;
  }
  bool ok() const { return ok_; }

 private:
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace

bool write_frame(int fd, FrameTag tag, const void* payload, std::size_t bytes) {
  const FrameHeader header{static_cast<std::uint32_t>(tag), 0, bytes};
  return write_all(fd, &header, sizeof header) && write_all(fd, payload, bytes);
}

std::vector<Frame> parse_frames(std::string_view bytes) {
  std::vector<Frame> frames;
  while (bytes.size() >= sizeof(FrameHeader)) {
    FrameHeader header{};
    std::memcpy(&header, bytes.data(), sizeof header);
    if (bytes.size() - sizeof header < header.bytes) break;
    frames.push_back({static_cast<FrameTag>(header.tag),
                      std::string(bytes.substr(sizeof header, header.bytes))});
    bytes.remove_prefix(sizeof header + header.bytes);
  }
  return frames;
}

bool has_started_frame(std::string_view bytes) {
  for (const Frame& frame : parse_frames(bytes))
    if (frame.tag == FrameTag::started) return true;
  return false;
}

// Every LaunchOptions field travels, one by one (its memory checks' ranges are the kernel
// host's to find). A field added to LaunchOptions changes its size: send it here, then update.
static_assert(sizeof(LaunchOptions) == 152,
              "LaunchOptions changed: send the new field in encode(JobMessage) and decode_job");

namespace {

void put_options(Writer& out, const LaunchOptions& o) {
  out.put(o.grid);
  out.put(o.block);
  out.put<std::uint64_t>(o.dynamic_shared_bytes);
  out.put(o.policy);
  out.put(o.seed);
  out.put(o.order_seed);
  out.put(o.max_steps);
  out.put(o.record_steps);
  out.put(o.spin_limit);
  out.put<std::uint64_t>(o.stack_bytes);
  out.put(o.semantics);
  out.put(o.never_set_fill);
  out.put(o.checks.races);
  out.put(o.checks.uninitialized_shared);
  out.put(o.checks.uninitialized_global);
  out.put(o.checks.bounds);
  out.put(o.jobs);
  out.put<std::int64_t>(o.deadline.time_since_epoch().count());
}

LaunchOptions get_options(Reader& in) {
  LaunchOptions o;
  o.grid = in.get<Dim3>();
  o.block = in.get<Dim3>();
  o.dynamic_shared_bytes = in.get<std::uint64_t>();
  o.policy = in.get<ConvergencePolicy>();
  o.seed = in.get<std::uint64_t>();
  o.order_seed = in.get<std::uint64_t>();
  o.max_steps = in.get<std::uint64_t>();
  o.record_steps = in.get<bool>();
  o.spin_limit = in.get<std::uint64_t>();
  o.stack_bytes = in.get<std::uint64_t>();
  o.semantics = in.get<SemanticsOptions>();
  o.never_set_fill = in.get<std::uint8_t>();
  o.checks.races = in.get<bool>();
  o.checks.uninitialized_shared = in.get<bool>();
  o.checks.uninitialized_global = in.get<bool>();
  o.checks.bounds = in.get<bool>();
  o.jobs = in.get<std::uint32_t>();
  o.deadline = std::chrono::steady_clock::time_point(
      std::chrono::steady_clock::duration(in.get<std::int64_t>()));
  return o;
}

// What the kernel host needs of one argument or struct field: type, shape, scalar bits, count.
void put_spec(Writer& out, const ArgSpec& spec) {
  out.put(static_cast<std::uint8_t>(spec.type));
  out.put(static_cast<std::uint8_t>(spec.is_buffer));
  out.put(spec.scalar_bits);
  out.put(spec.count);
}

ArgSpec get_spec(Reader& in) {
  ArgSpec spec;
  spec.type = static_cast<ElementType>(in.get<std::uint8_t>());
  spec.is_buffer = in.get<std::uint8_t>() != 0;
  spec.scalar_bits = in.get<std::uint64_t>();
  spec.count = in.get<std::uint64_t>();
  return spec;
}

}  // namespace

std::string encode(const JobMessage& job) {
  Writer out;
  out.put(std::string_view(job.shared_object));
  out.put<std::uint64_t>(job.specs.size());
  for (const ArgSpec& spec : job.specs) {
    put_spec(out, spec);
    out.put(static_cast<std::uint8_t>(spec.is_struct));
    out.put<std::uint64_t>(spec.fields.size());
    for (const ArgSpec& field : spec.fields) put_spec(out, field);
  }
  out.put<std::uint64_t>(job.buffers.size());
  for (const GuardedBuffer& buffer : job.buffers) {
    out.put<std::uint64_t>(buffer.arg);
    out.put<std::int32_t>(buffer.field);
    out.put(static_cast<std::uint8_t>(buffer.type));
    out.put(buffer.count);
    out.put(static_cast<std::uint8_t>(buffer.undefined));
  }
  put_options(out, job.options);
  out.put(static_cast<std::uint8_t>(job.want_trace));
  out.put(static_cast<std::uint8_t>(job.isolation));
  out.put(static_cast<std::uint8_t>(job.syscall_filter));
  out.put(job.max_processes);
  out.put(job.time_limit_seconds);
  return out.take();
}

std::optional<JobMessage> decode_job(std::string_view bytes) {
  Reader in(bytes);
  JobMessage job;
  job.shared_object = in.text();
  const auto specs = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < specs && in.ok(); ++i) {
    ArgSpec spec = get_spec(in);
    spec.is_struct = in.get<std::uint8_t>() != 0;
    const auto fields = in.get<std::uint64_t>();
    for (std::uint64_t f = 0; f < fields && in.ok(); ++f) spec.fields.push_back(get_spec(in));
    job.specs.push_back(std::move(spec));
  }
  const auto buffers = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < buffers && in.ok(); ++i) {
    GuardedBuffer buffer;
    buffer.arg = in.get<std::uint64_t>();
    buffer.field = in.get<std::int32_t>();
    buffer.type = static_cast<ElementType>(in.get<std::uint8_t>());
    buffer.count = in.get<std::uint64_t>();
    buffer.undefined = in.get<std::uint8_t>() != 0;
    job.buffers.push_back(buffer);
  }
  job.options = get_options(in);
  job.want_trace = in.get<std::uint8_t>() != 0;
  job.isolation = static_cast<Isolation>(in.get<std::uint8_t>());
  job.syscall_filter = in.get<std::uint8_t>() != 0;
  job.max_processes = in.get<std::uint64_t>();
  job.time_limit_seconds = in.get<double>();
  if (!in.ok()) return std::nullopt;
  return job;
}

std::string encode(const RunSummary& summary) {
  Writer out;
  out.put(static_cast<std::uint8_t>(summary.status));
  out.put(std::string_view(summary.message));
  out.put(summary.steps);
  out.put<std::uint64_t>(summary.files.size());
  for (const std::string& file : summary.files) out.put(std::string_view(file));
  out.put<std::uint64_t>(summary.diagnostics.size());
  for (const Diagnostic& d : summary.diagnostics) {
    out.put(static_cast<std::uint8_t>(d.kind));
    out.put(std::string_view(d.message));
    out.put(d.lanes);
    out.put(d.block);
    out.put(d.warp);
    out.put(d.step);
    out.put(d.where.file);
    out.put(d.where.line);
    out.put(d.occurrences);
    out.put(std::string_view(d.step_message));
    out.put(d.step_lanes);
    out.put(d.other_where.file);
    out.put(d.other_where.line);
    out.put(d.step_before);
  }
  out.put<std::uint64_t>(summary.printf_records.size());
  for (const PrintfRecord& record : summary.printf_records) {
    out.put(record.block);
    out.put(record.thread);
    out.put(std::string_view(record.text));
  }
  out.put<std::uint64_t>(summary.waits.size());
  for (const WarpWait& wait : summary.waits) out.put(wait);  // plain bytes, same build both sides
  out.put(summary.cpu_seconds_at_limit);
  out.put(summary.wait_seconds_at_limit);
  return out.take();
}

std::optional<RunSummary> decode_summary(std::string_view bytes) {
  Reader in(bytes);
  RunSummary summary;
  summary.status = static_cast<LaunchStatus>(in.get<std::uint8_t>());
  summary.message = in.text();
  summary.steps = in.get<std::uint64_t>();
  const auto files = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < files && in.ok(); ++i) summary.files.push_back(in.text());
  const auto diagnostics = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < diagnostics && in.ok(); ++i) {
    Diagnostic d;
    d.kind = static_cast<DiagnosticKind>(in.get<std::uint8_t>());
    d.message = in.text();
    d.lanes = in.get<LaneMask>();
    d.block = in.get<std::uint64_t>();
    d.warp = in.get<std::uint32_t>();
    d.step = in.get<std::int64_t>();
    d.where.file = in.get<std::uint32_t>();
    d.where.line = in.get<std::uint32_t>();
    d.occurrences = in.get<std::uint64_t>();
    d.step_message = in.text();
    d.step_lanes = in.get<LaneMask>();
    d.other_where.file = in.get<std::uint32_t>();
    d.other_where.line = in.get<std::uint32_t>();
    d.step_before = in.get<std::int64_t>();
    summary.diagnostics.push_back(std::move(d));
  }
  const auto records = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < records && in.ok(); ++i) {
    PrintfRecord record;
    record.block = in.get<std::uint64_t>();
    record.thread = in.get<std::uint32_t>();
    record.text = in.text();
    summary.printf_records.push_back(std::move(record));
  }
  const auto waits = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < waits && in.ok(); ++i) summary.waits.push_back(in.get<WarpWait>());
  summary.cpu_seconds_at_limit = in.get<double>();
  summary.wait_seconds_at_limit = in.get<double>();
  if (!in.ok()) return std::nullopt;
  return summary;
}

}  // namespace warpsim::runner
