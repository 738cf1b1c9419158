// <cooperative_groups/memcpy_async.h> for kernel files compiled against the host shim.
#pragma once

#include "warpsim/cooperative_groups_memcpy_async.hpp"
