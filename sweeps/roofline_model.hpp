// Moved to analysis/roofline_model.hpp; this forwarding header keeps older includes building.
#pragma once
#include "analysis/roofline_model.hpp"  // IWYU pragma: export
