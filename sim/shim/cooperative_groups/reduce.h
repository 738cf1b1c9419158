// <cooperative_groups/reduce.h> for kernel files compiled against the host shim.
#pragma once

#include "warpsim/cooperative_groups_reduce_scan.hpp"
