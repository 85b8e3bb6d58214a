// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "trace_status.h"

namespace psssp {

namespace {

// Text for reports and the key used in JSON output, per TraceStatus.
struct StatusNames {
  const char* text;
  const char* key;
};
constexpr StatusNames kStatusNames[kTraceStatusCount] = {
    {"delivered", "delivered"}, {"black hole", "black_hole"},
    {"loop", "loop"},           {"wrong delivery", "wrong_delivery"},
    {"down link", "down_link"}, {"unconnected port", "unconnected"},
};

}  // namespace

const char* trace_status_name(TraceStatus status) {
  return kStatusNames[static_cast<int>(status)].text;
}

const char* trace_status_key(TraceStatus status) {
  return kStatusNames[static_cast<int>(status)].key;
}

}  // namespace psssp
