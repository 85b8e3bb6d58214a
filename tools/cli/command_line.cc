// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cli/command_line.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <thread>

#include "psssp/version.h"

namespace psssp::cli {
namespace {

// "psssp-sim score": the app and the subcommands that were parsed.
std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* at = &app; !at->get_subcommands().empty();) {
    at = at->get_subcommands().front();
    path += " " + at->get_name();
  }
  return path;
}

std::string subcommand_names(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

// CLI11's message, reworded where it would not name the culprit plainly.
std::string parse_error_message(CLI::App& app, const CLI::ParseError& e, const std::string& noun) {
  const std::vector<std::string> extra = app.remaining(true);
  if (app.get_require_subcommand_min() > 0 && app.get_subcommands().empty()) {
    for (const std::string& word : extra)
      if (word.empty() || word[0] != '-')
        return "unknown " + noun + " '" + word + "' (one of " + subcommand_names(app) + ")";
    return "no " + noun + " given (one of " + subcommand_names(app) + ")";
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) && !extra.empty()) {
    const std::string& first = extra.front();
    if (first.size() > 1 && first[0] == '-')
      return "unknown option " + first.substr(0, first.find('='));
    return "unexpected argument '" + first + "'";
  }
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && what.find(" missing") != std::string::npos)
    return what.substr(0, what.find(':')) + " needs a value";
  return what;
}

std::string range_text(std::uint64_t min, std::uint64_t max) {
  return min == 0 ? "at most " + std::to_string(max)
                  : std::to_string(min) + " to " + std::to_string(max);
}

}  // namespace

std::string version_line(const std::string& program) { return program + " " + PSSSP_VERSION; }

void configure(CLI::App& app, const std::string& program) {
  app.name(program);
  app.set_help_flag("-h,--help", "print this help and exit");
  app.set_version_flag("--version", version_line(program), "print the version and exit");
  // Like getopt: a repeated option's last value counts (lists take all).
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

CLI::App* add_subcommand(CLI::App& parent, const std::string& name, const std::string& description,
                         std::function<void(CLI::App&)> define_options) {
  CLI::App* sub = parent.add_subcommand(name, description);
  const CLI::App* top = &parent;
  while (top->get_parent()) top = top->get_parent();
  sub->preparse_callback([sub, version = version_line(top->get_name()),
                          define = std::move(define_options)](std::size_t) {
    sub->set_version_flag("--version", version, "print the version and exit");
    define(*sub);
  });
  return sub;
}

std::uint64_t parse_uint(const std::string& option, const std::string& text, std::uint64_t min,
                         std::uint64_t max) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string_view digits = std::string_view(text).substr(hex ? 2 : 0);
  const char* allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
  if (digits.empty() || digits.find_first_not_of(allowed) != std::string_view::npos)
    throw UsageError(option + ": '" + text + "' is not a number (decimal or 0x-hex digits)");
  std::uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value, hex ? 16 : 10);
  if (error == std::errc::result_out_of_range || value < min || value > max)
    throw UsageError(option + ": " + text + " is out of range (" + range_text(min, max) + ")");
  return value;
}

CLI::Option* add_threads(CLI::App& app, unsigned& threads, const std::string& help) {
  return add_uint(app, "--threads", threads,
                  help + "\n0 (the default) = one per core; at most " + std::to_string(kMaxThreads),
                  0, kMaxThreads);
}

unsigned resolve_threads(unsigned threads) {
  return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

void flush_stdout() {
  // std::cout writes through stdout's buffer (synchronised with stdio), so
  // the write that fails, and sets errno, is this fflush().
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  std::cout.flush();
  if (!flushed || std::ferror(stdout) || !std::cout.good())
    throw std::runtime_error(std::string("error writing standard output") +
                             (error ? std::string(": ") + std::strerror(error) : ""));
}

int run(CLI::App& app, int argc, char** argv, const std::function<int()>& body,
        const std::string& noun) {
  const auto fail = [&app](std::string message, bool point_to_help) {
    const std::string who = command_path(app);
    // "psssp-topo torus: torus: ..." says the subcommand once.
    const std::string last = who.substr(who.rfind(' ') + 1) + ": ";
    if (message.rfind(last, 0) == 0) message.erase(0, last.size());
    std::fprintf(stderr, "%s: %s\n", who.c_str(), message.c_str());
    if (point_to_help) std::fprintf(stderr, "Run '%s --help' for the options.\n", who.c_str());
  };
  try {
    int status = kExitOk;
    try {
      app.parse(argc, argv);
      status = body();
    } catch (const CLI::Success& e) {  // --help, --version
      status = app.exit(e);
    } catch (const CLI::ParseError& e) {
      fail(parse_error_message(app, e, noun), true);
      return kExitError;
    } catch (const CheckFailed& e) {
      fail(e.what(), false);
      status = kExitCheckFailed;
    }
    flush_stdout();
    return status;
  } catch (const UsageError& e) {
    fail(e.what(), true);
  } catch (const std::bad_alloc&) {
    fail("out of memory", false);
  } catch (const std::exception& e) {
    fail(e.what(), false);
  }
  return kExitError;
}

}  // namespace psssp::cli
