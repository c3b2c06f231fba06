# The two commands a newcomer needs on a fresh Debian 12 machine:
#   make reproduce   install what is missing, build, regenerate every table and figure
#   make test        install what is missing, build, run all tests (also under ASan/UBSan)
# and `make build` for the Release build alone (executables in build/bin/).

SHELL := /bin/bash
JOBS ?= $(shell nproc)
# Debian packages the build, the tests and the figures need.
PACKAGES := build-essential cmake libeigen3-dev libfmt-dev libbenchmark-dev libgtest-dev \
            libtomlplusplus-dev gnuplot-nox libomp-dev clang-14 libclang-rt-14-dev clang-format \
            clang-tidy
SANITIZE ?= 1

.PHONY: all deps build build-asan test test-release test-asan reproduce format clean

all: build

deps:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
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

build: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

build-asan: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

test-release: build
	ctest --preset release -j $(JOBS)

test-asan: build-asan
	ctest --preset asan -j $(JOBS)

test: test-release
ifeq ($(SANITIZE),1)
test: test-asan
endif

# Everything in results/ is written by these commands from the configs in configs/.
reproduce: build
	@mkdir -p results/counts
	@for v in att ny ny_fix co_si co_re cony_si_cont cony_re_cont cony_si_fix cony_re_fix; do \
	  build/bin/cosda count --variant $$v --n 120 --d 192 --m 4 --heads 16; \
	done > results/counts/gtzan_n120_d192_m4_h16.jsonl
	@echo "counts of the nine variants at the GTZAN shape: results/counts/gtzan_n120_d192_m4_h16.jsonl"

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build build-asan
