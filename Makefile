# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# psssp: build, test, demo. CMake does the compiling; this file is the front door.
BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
PREFIX     ?= /usr/local
PYTHON     ?= /usr/bin/python3
JOBS       ?= $(shell nproc)
FUZZ_SECONDS ?= 60
DEPS_STAMP := $(BUILD)/.deps-installed
DEMO_DEPS_STAMP := $(BUILD)/.deps-demo
# One configuration for make, make test and make demo: they share $(BUILD)
# and none rebuilds what another built. Optimised without debug information,
# whose generation is a large part of the compile time (configure a
# RelWithDebInfo tree of your own for gdb; the sanitizer trees keep line
# tables for their reports).
RELEASE_FLAGS := -O2 -DNDEBUG
CONFIGURE  := cmake -S . -B $(BUILD) -G Ninja -DPSSSP_WERROR=ON -DCMAKE_BUILD_TYPE=Release \
              -DCMAKE_CXX_FLAGS_RELEASE="$(RELEASE_FLAGS)" -DCMAKE_C_FLAGS_RELEASE="$(RELEASE_FLAGS)"

.PHONY: all build deps demo-deps demo-build deb test unit-test asan-test tsan-test fuzz fuzz-smoke integration-test demo install format format-check clean

all: build

# The test set (everything make test needs, the demo set included); make
# demo installs only the demo set (scripts/install-deps.sh --dry-run SET).
$(DEPS_STAMP): scripts/install-deps.sh
	bash scripts/install-deps.sh test
	mkdir -p $(BUILD) && touch $@

$(DEMO_DEPS_STAMP): scripts/install-deps.sh
	@bash scripts/install-deps.sh demo
	@mkdir -p $(BUILD) && touch $@

deps: $(DEPS_STAMP)

demo-deps: $(DEMO_DEPS_STAMP)

build: deps
	$(CONFIGURE) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

unit-test: build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure

# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer
# (target unit_tests: the test binaries, not the benchmarks), then the
# command-line tests of psssp-sim and psssp-topo against sanitized builds of
# both; not the ibsim/OpenSM round trip. A sanitizer finding exits 86, which no
# test expects (they check for 0, 1 or 2), leaks included.
ASAN_CLI_TESTS ?= simulator topologies --ignore=topologies/test_roundtrip.py
SANITIZER_ENV  := ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=exitcode=86:print_stacktrace=1
# -Og keeps the asserts and debuggable frames but runs the routing tests
# several times faster than -O0 under ASan; -g1 (lines) is what the
# sanitizers' stack traces print.
ASAN_DEBUG_FLAGS := -Og -g1
asan-test: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DPSSSP_WERROR=ON -DPSSSP_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS_DEBUG="$(ASAN_DEBUG_FLAGS)" -DCMAKE_C_FLAGS_DEBUG="$(ASAN_DEBUG_FLAGS)" >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target unit_tests psssp-sim psssp-topo
	ctest --test-dir $(ASAN_BUILD) -j $(JOBS) --output-on-failure
	PSSSP_BUILD=$(abspath $(ASAN_BUILD)) $(SANITIZER_ENV) \
	  $(PYTHON) -m pytest -q -n $(JOBS) --timeout 900 $(ASAN_CLI_TESTS)

# The tests that run threads (core/parallel, routing, simulator) under
# ThreadSanitizer: data races fail the run. ctest runs their cases in
# parallel (each binary's cases carry its name as label); -g1 (lines) is
# what the race reports print.
TSAN_TESTS  := parallel_test routing_test simulator_test deadlock_test engine_bridge_test
TSAN_FLAGS  := -O2 -g1 -DNDEBUG
empty :=
space := $(empty) $(empty)
tsan-test: deps
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DPSSSP_WERROR=ON -DPSSSP_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(TSAN_FLAGS)" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$(TSAN_FLAGS)" >/dev/null
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target $(TSAN_TESTS)
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir $(TSAN_BUILD) -j $(JOBS) --output-on-failure \
	  -L '^($(subst $(space),|,$(TSAN_TESTS)))$$'

$(FUZZ_BUILD)/build.ninja: deps
	CXX=clang++ CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DPSSSP_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

# Each fuzz target for FUZZ_SECONDS (make fuzz) or a few seconds (make test).
fuzz: $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers
	bash fuzz/run-all.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=5

integration-test: build
	PSSSP_BUILD=$(abspath $(BUILD)) $(PYTHON) -m pytest -q -n $(JOBS) --timeout 900

# deb before the integration tests: tests/test_packages.py installs dist/*.deb.
test: format-check unit-test asan-test tsan-test fuzz-smoke deb integration-test

# An irregular fabric (random switch graph, 512 hosts): no engine's home turf,
# where congestion-aware routing with deadlock-free layers is what helps.
DEMO_TOPOLOGY ?= random-regular --switches 64 --degree 8 --hosts-per-switch 8 --seed 3
DEMO_RUNS ?= 1000
DEMO_OUT ?= demo-out
DEMO_LOG := $(BUILD)/demo-build.log
# Only the tools and plugins the demo runs (CMake target demo_tools), one
# line while it builds; the compiler's output only if the build fails.
demo-build: demo-deps
	@echo "demo: building psssp-sim, psssp-topo and the OpenSM plugins in $(BUILD)/ (log: $(DEMO_LOG))"
	@{ $(CONFIGURE) && cmake --build $(BUILD) -j $(JOBS) --target demo_tools; } >$(DEMO_LOG) 2>&1 || \
	  { cat $(DEMO_LOG); echo "demo: the build failed (output above, also in $(DEMO_LOG))"; exit 1; }

demo: demo-build
	@echo "demo: comparing routing engines through OpenSM on ibsim ($(DEMO_TOPOLOGY), $(DEMO_RUNS) runs)"
	@PSSSP_BUILD=$(abspath $(BUILD)) $(PYTHON) scripts/compare-engines --topology "$(DEMO_TOPOLOGY)" \
	  --runs $(DEMO_RUNS) --psssp-options vls=8 --out $(DEMO_OUT)
	@echo "demo report (one self-contained page, opens offline): $(abspath $(DEMO_OUT)/report.html)"

# Installs under $(DESTDIR)$(PREFIX), stripped: libpsssp.so where OpenSM's
# dlopen() finds it (lib/, or the multiarch lib dir with PREFIX=/usr), the
# tools, scripts, man pages and the example opensm.conf. Refreshes the linker
# cache only for a real install (no DESTDIR): staging never touches the host.
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix $(PREFIX) --strip
	@if [ -z "$(DESTDIR)" ]; then ldconfig; fi

# Debian binary packages (opensm-psssp, psssp-tools, their -dbgsym) with
# Debian's own tooling, into dist/; lintian's verdict in dist/lintian.txt.
deb: deps
	DEB_BUILD_OPTIONS="parallel=$(JOBS)" dpkg-buildpackage -b -us -uc
	mkdir -p dist
	mv ../psssp_*.buildinfo ../psssp_*.changes ../opensm-psssp*_*.*deb ../psssp-tools*_*.*deb dist/
	lintian --fail-on error dist/*.changes | tee dist/lintian.txt

format:
	clang-format -i $$(git ls-files '*.cc' '*.h')

# The sources as clang-format would write them (part of make test).
format-check: deps
	clang-format --dry-run -Werror $$(git ls-files '*.cc' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD) dist obj-*
