// <cooperative_groups.h> for kernel files compiled against the host shim.
#pragma once

#include "warpsim/cooperative_groups.hpp"
