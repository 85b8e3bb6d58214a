# psssp: build, test, demo. CMake does the compiling; this file is the front door.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
PREFIX     ?= /usr/local
PYTHON     ?= /usr/bin/python3
JOBS       ?= $(shell nproc)
FUZZ_SECONDS ?= 60
DEPS_STAMP := $(BUILD)/.deps-installed

.PHONY: all build deps test unit-test asan-test fuzz fuzz-smoke integration-test demo install format clean

all: build

$(DEPS_STAMP): scripts/install-deps.sh
	bash scripts/install-deps.sh
	mkdir -p $(BUILD) && touch $@

deps: $(DEPS_STAMP)

build: deps
	cmake -S . -B $(BUILD) -G Ninja -DPSSSP_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

unit-test: build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure

# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer
# (target unit_tests: only the test binaries, not the tools and benchmarks).
asan-test: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DPSSSP_WERROR=ON -DPSSSP_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target unit_tests
	ctest --test-dir $(ASAN_BUILD) -j $(JOBS) --output-on-failure

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

test: unit-test asan-test fuzz-smoke integration-test

# An irregular fabric (random switch graph, 512 hosts): no engine's home turf,
# where congestion-aware routing with deadlock-free layers is what helps.
DEMO_TOPOLOGY ?= random-regular --switches 64 --degree 8 --hosts-per-switch 8 --seed 3
DEMO_RUNS ?= 1000
demo: build
	PSSSP_BUILD=$(abspath $(BUILD)) $(PYTHON) scripts/compare-engines --topology "$(DEMO_TOPOLOGY)" \
	  --runs $(DEMO_RUNS) --psssp-options vls=8 --out demo-out

# Puts libpsssp.so where OpenSM's dlopen() finds it and refreshes the linker cache.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)
	-ldconfig

format:
	clang-format -i $$(git ls-files '*.cc' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
