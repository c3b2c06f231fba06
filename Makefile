# The two commands a newcomer needs on a fresh Debian 12 machine:
#   make reproduce   install what is missing, build, regenerate every table and figure
#   make test        install what is missing, build, run all tests (also under ASan/UBSan)
# and `make build` for the Release build alone (executables in build/bin/).

SHELL := /bin/bash
JOBS ?= $(shell nproc)
# Debian packages the build, the tests and the figures need.
PACKAGES := build-essential cmake libeigen3-dev libfmt-dev libbenchmark-dev libgtest-dev \
            libtomlplusplus-dev gnuplot-nox libomp-dev clang-14 libclang-rt-14-dev clang-format \
            clang-tidy libopenblas-dev pkg-config ninja-build universal-ctags \
            python3-dev pybind11-dev python3-numpy python3-pytest python3-pandas
# What `make reproduce` installs beyond PACKAGES: libtorch for the libtorch peer
# (results/timing/peer.md and models.md). `make test` (CI) does not need it.
REPRODUCE_PACKAGES := libtorch-dev
# The packages `deps` installs: PACKAGES, and REPRODUCE_PACKAGES under `make reproduce`.
DEPS_PACKAGES = $(PACKAGES)
SANITIZE ?= 1

FUZZ_SECONDS ?= 30
# clang-tidy reads the kernels (attention/, models/) through their .cpp files, where each variant is
# instantiated for every policy, and the analysis, command and benchmark sources; the tests are
# left out.
TIDY_FILES := $(shell git ls-files 'attention/*.cpp' 'attention/**/*.cpp' 'models/*.cpp' 'analysis/*.cpp' 'sweeps/*.cpp' \
                'bench/*.cpp' | grep -v -e fuzz_ -e peer_torch)

.PHONY: all deps build build-asan test test-release test-asan fuzz tidy lint reproduce format \
        format-check clean slurm-check

all: build

deps:
	@missing=$$(for p in $(DEPS_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	  grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get install -y $$missing"; exit 1; \
	  fi; \
	fi

# A tree configured before the presets chose Ninja cannot switch generator: start it afresh.
fresh_if_not_ninja = @if [ -f $(1)/CMakeCache.txt ] && \
  ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$$' $(1)/CMakeCache.txt; then \
  echo "$(1)/ was configured for another generator: removing it"; rm -rf $(1); fi

build: deps
	$(call fresh_if_not_ninja,build)
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS) $(RELEASE_TARGETS)

build-asan: deps
	$(call fresh_if_not_ninja,build-asan)
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

# With the sanitizers on, the suite (ctest label `suite`) runs in the sanitizer tree only; the
# Release tree builds what users run and runs the rest: the timed build's own tests, the
# documented commands, the Python module, the layout. `make test SANITIZE=0` runs it all here.
# (Target-specific variables: `build`, run for `test-release`, builds only those targets.)
ifeq ($(SANITIZE),1)
test-release: RELEASE_TARGETS = --target cosda_release_checks
test-release: RELEASE_TESTS = -LE suite
endif

# After each ctest run, the skipped tests with their reasons (tests/gtest_main.cpp prints them;
# pytest -rs its own), from ctest's log: ctest shows the output of failed tests only.
list_skips = @grep -h -E '^(cosda-skip|SKIPPED \[)' $(1)/Testing/Temporary/LastTest.log | \
  sort -u | sed 's/^/skipped ($(1)): /'; true

test-release: build
	ctest --preset release -j $(JOBS) $(RELEASE_TESTS)
	@grep -h -o -E '^[0-9]+ passed.* in [0-9.]+s' build/Testing/Temporary/LastTest.log | \
	  sed 's/^/python module (pytest): /' || true
	$(call list_skips,build)

test-asan: build-asan
	ctest --preset asan -j $(JOBS)
	$(call list_skips,build-asan)

# libFuzzer on the TOML config loader and the .npy reader (sweeps/fuzz/run.sh), seeds and
# committed regressions first; `make fuzz FUZZ_SECONDS=600` for a longer run.
fuzz: deps
	sweeps/fuzz/run.sh $(FUZZ_SECONDS)

# clang-tidy with the checked-in .clang-tidy over every translation unit of the Release tree.
tidy: build
	@echo "clang-tidy: $(words $(TIDY_FILES)) files"
	@printf '%s\n' $(TIDY_FILES) | xargs -P $(JOBS) -n 1 clang-tidy -p build --quiet \
	  --extra-arg=-Wno-unknown-warning-option 2>&1 | grep -v -e "warnings generated" \
	  -e "^Suppressed" -e "^Use -header-filter" ; test $${PIPESTATUS[1]} -eq 0

# clang-format's verdict on every source file (seconds; `make format` fixes it).
format-check: deps
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

# The static checks beyond the compilers' warnings, run before committing: clang-tidy takes
# about 15 CPU-minutes, so it is not part of `make test` (CI keeps to 20 minutes).
lint: format-check tidy

test: format-check test-release
ifeq ($(SANITIZE),1)
test: test-asan fuzz
endif

# Everything in results/ is written by these commands from the configs in configs/; what a
# shell redirect writes goes to a .tmp first, so that a failed command leaves the old file whole.
# (It also installs REPRODUCE_PACKAGES: the target-specific DEPS_PACKAGES after the recipe.)
reproduce: build
	build/bin/cosda verify
	@# Timing (docs/performance.md): roofline, a short benchmark pass, the figure, the libtorch
	@# peer (attention kernels, then whole models: results/timing/models.md).
	@mkdir -p results/timing results/roofline
	build/bin/cosda roofline --out results/roofline
	build/bin/cosda-bench --cosda_quick --cosda_report=results --benchmark_min_time=0.05 \
	  --benchmark_repetitions=3 --benchmark_out=results/timing/bench.json \
	  --benchmark_out_format=json > results/timing/bench.tmp && \
	  mv results/timing/bench.tmp results/timing/bench.txt || { rm -f results/timing/bench.tmp; exit 1; }
	build/bin/cosda roofline --plot-only --out results/roofline
	@if [ -x build/bin/cosda-peer-torch ]; then \
	  build/bin/cosda-peer-torch --quick --min_time=0.05 --repetitions=5 && \
	  build/bin/cosda-peer-torch --models --min_time=0.05 --repetitions=5 || exit 1; \
	else echo "libtorch-dev not installed: results/timing/peer.md and models.md left as they are"; fi
	@# Whole models (docs/models.md): the CoTrans paper's Tables 1-4 FLOPs.
	build/bin/cosda models --config configs/models/report.toml --out results/models
	@# Sweeps (docs/sweeps.md): every variant at the GTZAN shape, the papers' cost tables and figures,
	@# executed next to published; each command prints the files it wrote.
	@for c in gtzan_counts nystrom_table3 nystrom_table4 nystrom_landmarks cotrans_fig3 \
	    nystrom_fig4 random_features; do \
	  build/bin/cosda sweep configs/$$c.toml --no-report --resume || exit 1; \
	  build/bin/cosda report configs/$$c.toml || exit 1; \
	done
	@# Accuracy (docs/accuracy.md): approximation error and the cost-accuracy trade-off, the
	@# exact pseudo-inverse for comparison, drift over 10^6 steps, overflow thresholds.
	build/bin/cosda accuracy configs/accuracy.toml
	build/bin/cosda accuracy configs/accuracy_exact_pinv.toml --no-figures
	build/bin/cosda drift configs/drift.toml
	build/bin/cosda overflow configs/overflow.toml

# `deps`, run for `make reproduce`, installs the libtorch peer's packages too.
reproduce: DEPS_PACKAGES = $(PACKAGES) $(REPRODUCE_PACKAGES)

# The Slurm recipe of docs/reliability.md on a one-node cluster started on this machine
# (scripts/slurm_check.sh; installs slurm-wlm and munge). Not part of `make test`.
slurm-check: build
	scripts/slurm_check.sh

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build build-asan
