// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Chip layouts of director switches as ibnetdiscover reports them: one switch
// node per line chip (L01..) and per fabric (spine) chip (S01..).
#include <stdexcept>

#include "families.h"

namespace psssp::topo {

const std::vector<DirectorModel>& director_models() {
  // name, description, line chips, fabric chips, chip ports, external ports per line chip
  static const std::vector<DirectorModel> models = {
      {"isr2012", "ISR2012", 24, 12, 24, 12},  // 288 ports, 24-port chips (Voltaire)
      {"is5100", "IS5100", 6, 3, 36, 18},      // 108 ports, 36-port chips (Mellanox)
      {"is5200", "IS5200", 12, 6, 36, 18},     // 216 ports
      {"is5300", "IS5300", 18, 9, 36, 18},     // 324 ports
      {"is5600", "IS5600", 36, 18, 36, 18},    // 648 ports
      {"cs7500", "CS7500", 36, 18, 36, 18},    // 648 ports (EDR)
  };
  return models;
}

const DirectorModel& director_model(const std::string& name) {
  std::string known;
  for (const DirectorModel& m : director_models()) {
    if (name == m.name) return m;
    known += (known.empty() ? "" : ", ") + std::string(m.name);
  }
  throw std::invalid_argument("director: unknown --model \"" + name + "\" (known: " + known + ")");
}

DirectorParams director_params(const std::string& model) {
  const DirectorModel& m = director_model(model);
  DirectorParams p;
  p.model = m.description;
  p.line_chips = m.line_chips;
  p.fabric_chips = m.fabric_chips;
  p.chip_ports = m.chip_ports;
  p.external_ports = m.external_ports;
  return p;
}

DirectorJoin director_join(const std::string& name) {
  if (name == "chain") return DirectorJoin::chain;
  if (name == "ring") return DirectorJoin::ring;
  if (name == "mesh") return DirectorJoin::mesh;
  throw std::invalid_argument("director: --join must be chain, ring or mesh, not \"" + name + "\"");
}

}  // namespace psssp::topo
