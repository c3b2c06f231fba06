#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for SECONDS (default
# 30) on its seeds and committed regressions: `make fuzz` or `sweeps/fuzz/run.sh 300`.
# A crash stops the run with the input saved under build-fuzz/; fix it, then copy the input
# into sweeps/fuzz/<target>_regressions/ so that io_test and every later run replay it.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-30}
out=build-fuzz
mkdir -p "$out"
cxx=$(command -v clang++-14 || command -v clang++)
# -DNDEBUG as in the builds users run: the toml++ parser is then compiled as in Debian's
# libtomlplusplus (its internal debug assertions off); ASan and UBSan still see all of it.
flags=(-std=c++20 -g -O1 -DNDEBUG -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I.
       -DEIGEN_DONT_PARALLELIZE $(pkg-config --cflags eigen3))
build() {  # target, sources...
  local target=$1; shift
  if [ ! -x "$out/$target" ] || [ -n "$(find "$@" sweeps/*.hpp attention models -type f -newer "$out/$target")" ]; then
    echo "building $out/$target"
    "$cxx" "${flags[@]}" "$@" -o "$out/$target" -ltomlplusplus -lfmt
  fi
}
build fuzz_npy sweeps/fuzz_npy.cpp io/npy.cpp io/npy_header.cpp io/atomic_file.cpp \
  io/output_transaction.cpp &
npy=$!
build fuzz_config sweeps/fuzz_config.cpp sweeps/config.cpp sweeps/run_checks.cpp io/strict_toml.cpp \
  io/atomic_file.cpp io/output_transaction.cpp sweeps/fuzz/forms_unused.cpp &
config=$!
wait "$npy"
wait "$config"
# The two targets run at once, one core each; each prints its summary when it ends.
fuzz() {  # target
  local target=$1 corpus="$out/${1}_corpus"
  mkdir -p "$corpus" "sweeps/fuzz/${target}_regressions"
  local seeds=("sweeps/fuzz/${target}_seeds" "sweeps/fuzz/${target}_regressions")
  [ "$target" = config ] && seeds+=(configs)
  local report
  report=$(cd "$out" && ./"fuzz_$target" -max_total_time="$seconds" -max_len=4096 \
     -print_final_stats=1 -artifact_prefix="./${target}_crash-" "../$corpus" "${seeds[@]/#/../}" \
     2>&1 | grep -E "^(stat::number_of_executed_units|stat::new_units_added|==|SUMMARY|Done)" || true)
  echo "fuzzing $target for ${seconds}s:"
  echo "$report"
}
fuzz npy &
npy=$!
fuzz config &
config=$!
wait "$npy"
wait "$config"
for target in npy config; do
  if ls "$out/${target}_crash-"* >/dev/null 2>&1; then
    echo "fuzz_$target found a failing input: $(ls "$out/${target}_crash-"*)"; exit 1
  fi
done
