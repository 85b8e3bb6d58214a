// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "deadlock_option.h"

#include <array>
#include <memory>
#include <sstream>

#include "deadlock/deadlock_check.h"
#include "deadlock/route_walk.h"
#include "formats/fabric_io.h"
#include "formats/layer_table_io.h"
#include "formats/sl2vl_dump_reader.h"
#include "formats/sl_file_reader.h"
#include "output_util.h"

namespace psssp::sim {
namespace {

// The layers (SLs) a layer table gives routes from host ports: the rows of
// switches with hosts cabled to them, every destination LID.
std::vector<unsigned> layers_from_hosts(const Fabric& fabric, const LayerTable& table) {
  std::array<bool, 256> seen{};
  const std::vector<Lid> dests = deadlock::destination_lids(fabric);
  for (const deadlock::SourceSwitch& s : deadlock::source_switches(fabric))
    for (const Lid dlid : dests) seen[table.get(s.node, dlid)] = true;
  std::vector<unsigned> layers;
  for (unsigned l = 0; l < seen.size(); ++l)
    if (seen[l]) layers.push_back(l);
  return layers;
}

void scope_text(std::ostringstream& text, const Fabric& fabric, const char* scope,
                const deadlock::DeadlockReport& r) {
  std::string vls;
  for (const auto vl : r.vls) vls += (vls.empty() ? "" : ",") + std::to_string(vl);
  text << "  " << scope << ": ";
  if (r.deadlock_free) {
    text << "none; " << r.dependencies << " channel dependencies on VLs {" << vls << "}\n";
  } else {
    text << "CYCLE on VLs {" << vls << "}\n" << deadlock::format_cycle(fabric, r);
    if (text.str().back() != '\n') text << '\n';
  }
}

cli::Json scope_json(const Fabric& fabric, const deadlock::DeadlockReport& r) {
  cli::Json json = {{"deadlock_free", r.deadlock_free},
                    {"dependencies", r.dependencies},
                    {"vls", r.vls},
                    {"routes", r.routes},
                    {"unrouted", r.unrouted},
                    {"broken", r.broken},
                    {"loops", r.loops},
                    {"cycle", cli::Json::array()}};
  for (const deadlock::CycleLink& c : r.cycle)
    json["cycle"].push_back(
        {{"switch_guid", hex_guid(c.switch_guid)},
         {"port", c.channel.port},
         {"vl", c.vl},
         {"slid", c.slid},
         {"dlid", c.dlid},
         {"switch_route", !deadlock::switch_ends(fabric, c.slid, c.dlid).empty()}});
  return json;
}

}  // namespace

DeadlockOutcome check_credit_loops(const Fabric& fabric, const ForwardingTables& lfts,
                                   const DeadlockInputs& in) {
  if (!in.sl_file.empty() && !in.layer_table.empty())
    throw InputError("give either --sl-file or --layers, not both");
  std::unique_ptr<SlSource> sls;
  std::string sl_origin = "SL 0 for every route";
  cli::Json sl_file_summary;      // routes listed and their SLs, for callers' tables
  cli::Json layer_table_summary;  // the layers routes from host ports use
  if (!in.sl_file.empty()) {
    auto file = std::make_unique<SlFile>(read_sl_file(in.sl_file));
    sl_file_summary = {{"routes", file->size()}, {"sls", file->sls_used()}};
    sls = std::move(file);
    sl_origin = "SLs from " + in.sl_file;
  } else if (!in.layer_table.empty()) {
    auto table = std::make_unique<LayerTable>(read_layer_table(in.layer_table, fabric));
    layer_table_summary = {{"sls", layers_from_hosts(fabric, *table)}};
    sls = std::move(table);
    sl_origin = "SLs from layer table " + in.layer_table;
  } else {
    sls = std::make_unique<UniformSl>(0);
  }
  const Sl2VlTables sl2vl =
      in.sl2vl_dump.empty() ? Sl2VlTables() : read_sl2vl_dump(in.sl2vl_dump, fabric);
  const std::string vl_origin =
      in.sl2vl_dump.empty() ? "identity SL-to-VL" : "SL-to-VL from " + in.sl2vl_dump;

  const deadlock::DeadlockReport hosts =
      deadlock::check_deadlock(fabric, lfts, *sls, sl2vl, deadlock::RouteScope::hosts);
  const deadlock::DeadlockReport all =
      deadlock::check_deadlock(fabric, lfts, *sls, sl2vl, deadlock::RouteScope::all);
  const deadlock::DeadlockReport& chosen = in.hosts_scope ? hosts : all;
  DeadlockOutcome out;
  out.deadlock_free = chosen.deadlock_free;
  std::ostringstream text;
  text << "credit loops (" << sl_origin << ", " << vl_origin << "):\n";
  scope_text(text, fabric, "host-to-host routes", hosts);
  scope_text(text, fabric, "all routes (switch LIDs included)", all);
  if (all.switch_unrouted + all.switch_broken + all.switch_loops)
    text << "  routes from or to switch LIDs that fail: " << all.switch_unrouted
         << " dead-end (no LFT entry), " << all.switch_broken << " sent to a dead port, "
         << all.switch_loops << " in a forwarding loop\n";
  text << "  verdict (exit status) from " << (in.hosts_scope ? "host-to-host" : "all")
       << " routes (--deadlock-scope " << (in.hosts_scope ? "hosts" : "all") << ")\n";
  out.text = text.str();
  out.json = scope_json(fabric, chosen);
  out.json["scope"] = in.hosts_scope ? "hosts" : "all";
  out.json["hosts"] = scope_json(fabric, hosts);
  out.json["all"] = scope_json(fabric, all);
  out.json["all"]["switch_routes_failed"] = {{"dead_end", all.switch_unrouted},
                                             {"dead_port", all.switch_broken},
                                             {"loop", all.switch_loops}};
  if (!sl_file_summary.is_null()) out.json["sl_file"] = sl_file_summary;
  if (!layer_table_summary.is_null()) out.json["layer_table"] = layer_table_summary;
  out.json["seconds"] = hosts.seconds + all.seconds;
  return out;
}

}  // namespace psssp::sim
