// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// How many threads a parallel step may use.
#pragma once

namespace psssp::parallel {

// More threads than this never help (the widest step splits a few thousand
// destinations) and each costs a stack; requests above it are capped.
constexpr unsigned kMaxThreads = 256;

// `requested` threads, 0 meaning one per core; at least 1, at most kMaxThreads.
unsigned effective_threads(unsigned requested);

}  // namespace psssp::parallel
