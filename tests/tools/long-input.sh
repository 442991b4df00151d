#!/bin/sh
# Long input lines and many lines (issue 14): gemu-as (Tesla and USSE),
# gemu-shader and a scene given a 2 MiB line, or 2 Mi lines before a
# bad one, must finish with the error naming that line.  No time is
# asserted: under AddressSanitizer (tests/sanitize.sh runs this script
# in its ASan build) glib's g_strsplit took minutes on such inputs
# (quadratic through ASan's strstr); the parsers split in one pass now
# (gemu/strsplit.h), and a hang here shows as the run's timeout.
#
#   GEMU_BUILD  the build directory (default: build)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
cd "$tmp" || exit 1

# repeat TEXT N: TEXT N times (N a power of two)
repeat() {
    printf '%s' "$1" > rep
    n=1
    while test "$n" -lt "$2"; do
        cat rep rep > rep2 && mv rep2 rep
        n=$((n * 2))
    done
    cat rep
}

M=2097152       # 2 MiB

# expect NAME STATUS MESSAGE CMD...: CMD exits with STATUS and its first
# line of standard error (cut to 300 bytes) starts with MESSAGE.
expect() {
    name=$1
    want_rc=$2
    want=$3
    shift 3
    "$@" > out 2> err
    rc=$?
    got=$(head -c 300 err | head -n 1)
    case $got in
    "$want"*)
        check "$name: exit status" "$want_rc" "$rc" ;;
    *)
        bad "$name: exit status $rc, message '$got', expected '$want...'" ;;
    esac
    len=$(head -n 1 err | wc -c)
    if test "$len" -gt 1000; then
        bad "$name: a message of $len bytes (the whole line quoted)"
    fi
}

{ echo nop; printf 'mov $r0 '; repeat a $M; echo; } > long.s
expect "gemu-as, a 2 MiB line" 1 'long.s:2: cannot parse "aaaa' \
    "$build/gemu-as" -m tesla long.s -o long.bin
{ repeat 'nop
' $((M / 4)); echo frob; } > many.s
expect "gemu-as, 512 Ki lines" 1 "many.s:524289: no encoding of \"frob\"" \
    "$build/gemu-as" -m tesla many.s -o many.bin

{ echo nop; printf 'mov '; repeat a $M; echo; } > long.lst
expect "gemu-as -m usse, a 2 MiB line" 1 'long.lst:2: unknown instruction' \
    "$build/gemu-as" -m usse long.lst -o long.bin
{ repeat '
' $M; echo frob; } > many.lst
expect "gemu-as -m usse, 2 Mi lines" 1 "many.lst:2097153: " \
    "$build/gemu-as" -m usse many.lst -o many.bin

echo nop > nop.s
{ echo 'code nop.s'; printf 'grid '; repeat 9 $M; echo; } > long.state
expect "gemu-shader, a 2 MiB number" 2 \
    "gemu-shader: long.state:2: grid x 9999" "$build/gemu-shader" long.state
{ echo 'code nop.s'; repeat '
' $M; echo frob; } > many.state
expect "gemu-shader, 2 Mi lines" 2 \
    "gemu-shader: many.state:2097154: unknown directive 'frob'" \
    "$build/gemu-shader" many.state
{ printf 'chip sgx543\ncode nop.s\n'; repeat '
' $M; echo frob; } > many-usse.state
expect "gemu-shader (sgx543), 2 Mi lines" 2 \
    "gemu-shader: many-usse.state:2097155: unknown directive 'frob'" \
    "$build/gemu-shader" many-usse.state

{ echo 'sgx-scene 1'; printf 'reg '; repeat x $M; echo; } > long.scene
expect "scene, a 2 MiB line" 1 \
    "gemu: long.scene: line 2: usage: reg NAME|OFFSET VALUE" \
    "$build/gemu" -M sgx543 -display none -scene long.scene
{ echo 'sgx-scene 1'; repeat '
' $M; echo frob; } > many.scene
expect "scene, 2 Mi lines" 1 \
    "gemu: many.scene: line 2097154: unknown directive 'frob'" \
    "$build/gemu" -M sgx543 -display none -scene many.scene

finish long-input
