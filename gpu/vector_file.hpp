// Writing vector files (../shared/spec/vectors.md): a header line, then one JSON object per case.
// Paths ending in ".gz" are gzip-compressed. Reading and checking live in the simulator.
//
//   {"device":"NVIDIA H100 80GB HBM3","sm":90,"driver":13000,"runtime":13000,"seed":777,"cases":1}
//   {"op":"shfl_up_sync","type":"i32","mask":"0xffffffff","lanes":"0x0000ffff","width":32,
//    "value":["0x00000064",...,null],"arg":[1,...,null],"expect":["0x00000064","0x00000064",...,null]}
//   (one line in the file)
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "expected.hpp"
#include "vector_cases.hpp"

namespace warpsim::gpu {

struct VectorHeader {
  std::string device;       // e.g. "NVIDIA H100 80GB HBM3"
  int sm = 0;               // e.g. 90
  int driver = 0;           // cuDriverGetVersion, e.g. 13000
  int runtime = 0;          // toolkit (NVRTC) version, e.g. 13000
  std::uint64_t seed = 0;
  std::size_t cases = 0;    // number of case lines that follow
};

// One line each, without the trailing newline.
std::string format_header_line(const VectorHeader& header);
// Precondition: c.mask contains c.lanes and c.expect_defined is within c.lanes.
std::string format_case_line(const VectorCase& c);

// Writes the header and the cases (header.cases must equal cases.size()). The file appears
// complete or not at all: it is written next to `path` and renamed into place at the end.
Expected<void> write_vector_file(const std::filesystem::path& path, const VectorHeader& header,
                                 std::span<const VectorCase> cases);

}  // namespace warpsim::gpu
