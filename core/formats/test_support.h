// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Helpers shared by the formats tests: test data paths and expecting an
// InputError with a given message.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "formats/fabric_io.h"

namespace psssp::testing {

inline std::string testdata(const std::string& name) {
  return std::string(PSSSP_SOURCE_DIR) + "/core/formats/testdata/" + name;
}

// Runs f and returns the InputError message, or "" (and a test failure) if
// it did not throw one.
template <typename F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return "";
}

// Replaces the first occurrence of `from` (which must exist) in `text`.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Same nodes (by GUID), types, port counts, cables, rates, port GUIDs and
// LIDs. `what` labels failures.
inline void expect_same_fabric(const Fabric& a, const Fabric& b, const std::string& what,
                               bool compare_lids = true) {
  ASSERT_EQ(a.node_count(), b.node_count()) << what;
  for (const Node& na : a.nodes()) {
    const auto id = b.find_by_guid(na.guid);
    ASSERT_TRUE(id) << what << ": node " << na.name << " missing";
    const Node& nb = b.node(*id);
    EXPECT_EQ(na.type, nb.type) << what << ": " << na.name;
    ASSERT_EQ(na.num_ports(), nb.num_ports()) << what << ": " << na.name;
    for (PortNum p = 0; p <= na.num_ports(); ++p) {
      const Port& pa = na.ports[p];
      const Port& pb = nb.ports[p];
      const std::string where = what + ": " + na.name + " port " + std::to_string(p);
      ASSERT_EQ(pa.connected(), pb.connected()) << where;
      if (pa.connected()) {
        EXPECT_EQ(a.node(pa.remote.node).guid, b.node(pb.remote.node).guid) << where;
        EXPECT_EQ(pa.remote.port, pb.remote.port) << where;
        EXPECT_EQ(pa.rate, pb.rate) << where;
      }
      const bool id_port = na.is_switch() ? p == 0 : p != 0 && pa.connected();
      if (!id_port) continue;
      EXPECT_EQ(pa.guid, pb.guid) << where;
      if (compare_lids) {
        EXPECT_EQ(pa.lid, pb.lid) << where;
        EXPECT_EQ(pa.lmc, pb.lmc) << where;
      }
    }
  }
}

}  // namespace psssp::testing
