// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The individual fabric readers behind parse_fabric. Each returns a fabric
// that is not indexed yet; parse_fabric indexes it.
#pragma once

#include <string>
#include <string_view>

#include "fabric/fabric.h"

namespace psssp::formats {

Fabric parse_ibnetdiscover(std::string_view content, const std::string& source);
// `include` lines are resolved relative to the directory of `source`;
// with allow_include false they are errors (the fuzzer must not read files).
Fabric parse_ibsim_net(std::string_view content, const std::string& source,
                       bool allow_include = true);
Fabric parse_subnet_lst(std::string_view content, const std::string& source);

// Link rate as ibnetdiscover prints it: "4xQDR", "4x???", "??x???", "1xSDR".
// Unknown parts stay unknown; nullopt if it is not a rate at all.
std::optional<LinkRate> parse_rate_token(std::string_view token);

}  // namespace psssp::formats
