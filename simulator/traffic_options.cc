// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "traffic_options.h"

#include "cli/command_line.h"

namespace psssp::sim {

void add_traffic_options(CLI::App& cmd, TrafficOptions& o) {
  cmd.add_option("--pattern", o.pattern, "traffic pattern (default bisect; psssp-sim(1))")
      ->type_name("P");
  cli::add_uint(cmd, "--seed", o.seed,
                "run r draws from mt19937_64(splitmix64(S ^ splitmix64(r)))\n(default 1)", 0,
                UINT64_MAX)
      ->type_name("S");
  cmd.add_option("--hosts-regex", o.hosts_regex, "hosts whose node description matches RE")
      ->type_name("RE");
  cmd.add_option("--hosts-file", o.hosts_file,
                 "hosts listed by port (or node) GUID, as OpenSM's cn_guid_file")
      ->type_name("GUIDS");
  cmd.add_option("--lmc-path", o.lmc_path,
                 "LMC destination LID: first (base), random,\nhash (of src/dst LIDs), offset:K "
                 "(base + K mod 2^LMC:\none LMC class)")
      ->type_name("M");
  cmd.add_option("--mapping", o.mapping,
                 "rank -> host: linear (fabric order; the default), hostname\n(natural order of "
                 "node descriptions, then port: a block-allocated\njob), random (new per run; "
                 "the default of orcs:*), FILE of GUIDs/LIDs")
      ->type_name("M");
  cmd.add_option("--grid", o.grid, "grid of halo2d/halo3d")->type_name("AxB[xC]");
}

}  // namespace psssp::sim
