#!/bin/sh
# make fuzz / make fuzz-smoke: run libFuzzer harnesses one after the other.
#   sh tests/fuzz/run.sh SECONDS HARNESS...
#   GEMU_BUILD   the build directory (set by make)
#   FUZZ_ARGS    more libFuzzer options (e.g. -seed=1 -jobs=2)
#   FUZZ_TIMEOUT seconds one input may take before it counts as a hang
#                (default 10)
# Each harness NAME starts from the seeds in tests/fuzz/corpus/NAME/
# (read only; it runs in that directory, where the files seeds name
# lie) and keeps what it finds in GEMU_BUILD/fuzz/corpus/NAME/;
# tests/fuzz/NAME.dict is its dictionary when there is one.  A crash,
# leak, UB report, hang (FUZZ_TIMEOUT) or out-of-memory (2 GiB) fails
# the run: the input is left in GEMU_BUILD/fuzz/crashes/NAME/ and the
# command that reproduces it is printed.  The last line is
# "fuzz: N passed, N failed" over the harnesses.
set -u
if test $# -lt 2; then
    echo "usage: run.sh SECONDS HARNESS..." >&2
    exit 2
fi
secs=$1
shift
build=$(cd "${GEMU_BUILD:-build}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
timeout=${FUZZ_TIMEOUT:-10}
pass=0
fail=0

mkdir -p "$build/fuzz/run" "$build/fuzz/logs"
for bin in "$@"; do
    case $bin in
    /*) ;;
    *) bin=$(pwd)/$bin ;;
    esac
    name=$(basename "$bin")
    seeds="$src/tests/fuzz/corpus/$name"
    work="$build/fuzz/corpus/$name"
    crashes="$build/fuzz/crashes/$name"
    log="$build/fuzz/logs/$name.log"
    dict=
    mkdir -p "$work" "$crashes"
    test -f "$src/tests/fuzz/$name.dict" && dict="-dict=$src/tests/fuzz/$name.dict"
    dir="$build/fuzz/run"
    test -d "$seeds" && dir=$seeds || seeds=
    # a scene or state file may name a file: relative names resolve
    # among the seeds (the .gxp, .s, .hex files the seeds name lie there)
    (cd "$dir" &&
     ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
     UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
     "$bin" -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2048 \
         -print_final_stats=1 -artifact_prefix="$crashes/" $dict \
         ${FUZZ_ARGS:-} "$work" $seeds) > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | \
          sed -n 's/.*\(cov: [0-9]*\).*\(ft: [0-9]*\).*/\1 \2/p')
    if test $rc -eq 0; then
        pass=$((pass + 1))
        echo "fuzz $name: ok, ${runs:-?} runs in ${secs}s, ${cov:-no cov}"
    else
        fail=$((fail + 1))
        echo "fuzz $name: FAILED (exit $rc) after ${runs:-?} runs; log $log"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5
        for f in $(grep -o "$crashes/[^ ]*" "$log" | sort -u); do
            test -f "$f" || continue
            echo "  reproduce: (cd $dir && $bin $f)"
        done
    fi
done
echo "fuzz: $pass passed, $fail failed"
test $fail -eq 0
