// <cooperative_groups.h> for kernel files compiled against the host shim.
#pragma once
#define _COOPERATIVE_GROUPS_H_  // the toolkit header's include guard

#include "warpsim/cooperative_groups.hpp"
