#!/bin/sh
# USSE programs run on a real PS Vita, through gemu-shader: every case
# folder (program.lst, case.txt; tests/data/usse-hw/README.md) must meet
# every byte the console wrote within 3, read back the way the console's
# were (rig corners 960 544), and gemu-dis must claim every bit of its
# words (and of the SDL corpus' .gxp files).  Then the programs of each family that the
# console never ran (tests/tools/usse-hw/*.state), whose outputs were
# worked out by hand from the rules the cases established.  Prints
# "usse-hw: N passed, N failed" last.
#
#   usse-hw.sh [DIR...]   case folders, or folders of case folders
#                         (default: tests/data/usse-hw)
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_SRC    the source tree (default: this script's tree)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
bin=$build/gemu-shader
[ $# -gt 0 ] || set -- "$SRC_DIR/tests/data/usse-hw"

# one case: a state file beside nothing, naming the case's files
run_case() {
    dir=$(cd "$1" && pwd)
    name=$(basename "$dir")
    cat > "$tmp/case.state" <<EOF
chip sgx543
stage vertex
threads 4
listing $dir/program.lst
tolerance 3
rig corners 960 544
include $dir/case.txt
EOF
    # every word of the listing decodes whole: no [unk ...], no ???
    sed -n 's/^ *[0-9a-fA-F]*: *\([0-9a-fA-F]\{16\}\).*/.word 0x\1/p' \
        "$dir/program.lst" > "$tmp/words.s"
    if ! "$build/gemu-as" -m usse "$tmp/words.s" -o "$tmp/words.bin" \
           2> "$tmp/err" ||
       ! "$build/gemu-dis" -m usse "$tmp/words.bin" > "$tmp/dis" 2>&1; then
        bad "$name: words: $(cat "$tmp/err")"
    elif grep -e '\[unk' -e '???' "$tmp/dis"; then
        bad "$name: gemu-dis leaves bits unclaimed"
    else
        ok
    fi
    "$bin" "$tmp/case.state" > "$tmp/out" 2> "$tmp/err"
    st=$?
    if [ $st = 0 ] && grep -q '^expect: [0-9]* met, 0 missed' "$tmp/out"; then
        ok
    else
        bad "$name: status $st, $(tail -1 "$tmp/out") $(cat "$tmp/err")"
        grep MISSED "$tmp/out" | head -8
    fi
}

ncases=0
for top in "$@"; do
    [ -d "$top" ] || bad "no folder $top"
    for d in "$top" "$top"/*/; do
        if [ -f "$d/program.lst" ] && [ -f "$d/case.txt" ]; then
            run_case "$d"
            ncases=$((ncases + 1))
        fi
    done
done
[ $ncases -gt 0 ] || bad "no case (program.lst and case.txt) in $*"

# the SDL corpus decodes whole too
for g in "$SRC_DIR"/tests/data/sdl2-vitagxm/*.gxp; do
    if "$build/gemu-dis" -m usse "$g" > "$tmp/dis" 2>&1 &&
       ! grep -q -e '\[unk' -e '???' "$tmp/dis"; then
        ok
    else
        bad "$(basename "$g"): gemu-dis: $(grep -m1 -e unk -e '???' "$tmp/dis")"
    fi
done

# the families on programs the console never ran: each state file's
# expectations and dumps are in its .want beside it
for st in "$SRC_DIR"/tests/tools/usse-hw/*.state; do
    name=$(basename "$st" .state)
    "$bin" "$st" > "$tmp/$name.out" 2> "$tmp/$name.err"
    s=$?
    if [ $s != 0 ]; then
        bad "$name: status $s: $(cat "$tmp/$name.err")"
        grep MISSED "$tmp/$name.out" | head -8
    elif ! cmp -s "$tmp/$name.out" "${st%.state}.want"; then
        bad "$name: output differs"
        diff "${st%.state}.want" "$tmp/$name.out" | head -10
    else
        ok
    fi
done

finish usse-hw
