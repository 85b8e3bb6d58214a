// The psssp-sim subcommands. Each takes the arguments after its name and
// returns the process exit status; errors go to stderr as one clear line.
#pragma once

namespace psssp::sim {

int run_info(int argc, char** argv);   // cmd_info.cc: what a fabric file holds
int run_check(int argc, char** argv);  // cmd_check.cc: trace every route, report faults
int run_score(int argc, char** argv);  // cmd_score.cc: effective bisection bandwidth
int run_route(int argc, char** argv);  // cmd_route.cc: P-SSSP LFTs for a fabric file

}  // namespace psssp::sim
