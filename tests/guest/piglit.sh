#!/bin/sh
# SPDX-License-Identifier: MIT
# piglit on the emulated G84: the subset listed in piglit-subset.txt
# (one test a line: a piglit binary, its arguments after commas
# (e.g. ext_framebuffer_multisample-clear,4,color), or
# shader_runner:PATH of a .shader_test under piglit's directory, and
# the result it must give),
# run by Mesa's nouveau (nv50) driver in gemu's Mesa guest, headless
# (PIGLIT_PLATFORM=gbm, -auto -fbo).
#
# Debian's piglit package (.ci/debian-packages) is ~2 GB installed; the
# guest gets only the binaries the subset names, piglit's own libraries,
# the .shader_test files and every library they need that the Mesa
# guest lacks (resolved by the host's loader, as gemu does for Mesa),
# in a third cpio archive with a script that runs each test under a
# time limit and prints "piglit-result NAME RESULT SECONDS".
#
# Checked: every test gives the result the list says (pass for all but
# the few listed otherwise, each with why); the pass count is printed
# (2026-11-27: 62 of 62, boot 230-505 s under load; with the 11 layer and
# viewport tests 73 of 73, boot 599 s at load 13)
# ("piglit: N of M tests pass"); nouveau's clean probe and none of its
# complaints about the GPU (lib/nouveau-checks.sh).
# One boot, ~4-9 min under TCG on a loaded 2-core host.
#   GEMU_BUILD, GEMU_GUEST_TIMEOUT, GEMU_GUEST_LOG as nouveau-probe.sh
#   (the log kept as PREFIX-piglit.log)
# Prints "piglit: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
limit=${GEMU_GUEST_TIMEOUT:-1200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/guest/lib/nouveau-checks.sh"
. "$src/tests/guest/lib/guest-prog.sh"
piglit=/usr/lib/x86_64-linux-gnu/piglit
list="$src/tests/guest/piglit-subset.txt"

# The tests of the list, one a line ("NAME RESULT")
subset() {
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$list"
}

# The guest's part: the tests' files and their libraries in $1
piglit_tree() {
    root=$1
    mkdir -p "$root$piglit/bin" "$root$piglit/lib" \
        "$root/usr/lib/x86_64-linux-gnu" "$root/usr/bin"
    cp "$piglit/bin/shader_runner" "$root$piglit/bin/" || return 1
    subset | while read -r name want; do
        case $name in
        shader_runner:*)
            f=${name#shader_runner:}
            mkdir -p "$root$piglit/$(dirname "$f")"
            cp "$piglit/$f" "$root$piglit/$f" || return 1 ;;
        *)
            cp "$piglit/bin/${name%%,*}" "$root$piglit/bin/" || return 1 ;;
        esac
    done || return 1
    cp -a "$piglit"/lib/*.so* "$root$piglit/lib/" || return 1
    # the shaders some tests read (PIGLIT_SOURCE_DIR)
    mkdir -p "$root$piglit/tests"
    cp -a "$piglit/tests/shaders" "$root$piglit/tests/" || return 1
    for f in "$root$piglit"/bin/* "$root$piglit"/lib/*.so.0; do
        ldd "$f" 2>/dev/null | awk '$3 ~ /^\// { print $1, $3 }'
    done | sort -u | while read -r so path; do
        case $path in
        "$piglit"/*) ;;
        *) cp -L "$path" "$root/usr/lib/x86_64-linux-gnu/$so" || return 1 ;;
        esac
    done || return 1
    # the runner: each test, its result from piglit's "PIGLIT: {...}"
    {
        cat <<'EOF'
cd /usr/lib/x86_64-linux-gnu/piglit || exit 1
export PIGLIT_PLATFORM=gbm PIGLIT_SOURCE_DIR=$PWD
t() {
    name=$1
    shift
    s=$(cut -d. -f1 /proc/uptime)
    timeout 120 "$@" -auto -fbo >/tmp/out.txt 2>&1
    r=$(sed -n 's/.*"result": *"\([a-z]*\)".*/\1/p' /tmp/out.txt | tail -n 1)
    echo "piglit-result $name ${r:-none} $(($(cut -d. -f1 /proc/uptime) - s))s"
    test "$r" = pass || tail -n 3 /tmp/out.txt | sed 's/^/  | /'
}
EOF
        subset | while read -r name want; do
            case $name in
            shader_runner:*)
                echo "t $name bin/shader_runner ${name#shader_runner:}" ;;
            *)
                echo "t $name bin/$(echo "$name" | tr , ' ')" ;;
            esac
        done
    } >"$root/usr/bin/run-piglit"
}

piglit_initrd() {
    if ! initrd=$(guest_mesa_initrd "$build"); then
        ko "piglit: $initrd"
        return 1
    fi
    if ! piglit_tree "$tmp/root"; then
        ko "piglit: cannot gather the subset's files from $piglit"
        return 1
    fi
    if ! (cd "$tmp/root" && find . -mindepth 1 | sed 's|^\./||' |
          busybox cpio -o -H newc) >"$tmp/piglit.cpio" 2>/dev/null; then
        ko "piglit: cannot make the piglit archive"
        return 1
    fi
    echo "piglit: the guest's piglit archive:" \
         "$(($(wc -c <"$tmp/piglit.cpio") / 1048576)) MiB," \
         "$(subset | wc -l) tests"
    cat "$initrd" "$tmp/piglit.cpio" >"$tmp/initrd.cpio"
}

piglit_boot() {
    log="$tmp/piglit.log"
    t0=$(date +%s)
    timeout -k 10 "$limit" "$build/gemu" -display none -M g84 \
        -guest-mesa -guest-run 'sh /usr/bin/run-piglit' \
        -- -initrd "$tmp/initrd.cpio" </dev/null >"$log" 2>&1
    rc=$?
    tr -d '\r' <"$log" >"$tmp/piglit.txt"
    log="$tmp/piglit.txt"
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$log" "$GEMU_GUEST_LOG-piglit.log"
    fi
    echo "piglit: the boot took $(($(date +%s) - t0)) s"
    if test $rc -ne 0; then
        ko "piglit: gemu exited with $rc: $(tail -n 3 "$log")"
    fi
    grep -a -o '\[ *[0-9][0-9]*\.[0-9]*\] .*' "$log" >"$tmp/kernel.log"
    probe_checks piglit "$tmp/kernel.log"
    accel_log_checks piglit "$tmp/kernel.log"
    total=0
    passes=0
    while read -r name want; do
        total=$((total + 1))
        got=$(grep -a "^piglit-result $name " "$log" | tail -n 1)
        set -- $got
        res=${3:-missing}
        test "$res" = pass && passes=$((passes + 1))
        if test "$res" = "$want"; then
            ok "piglit: $name: $res (${4:-})"
        else
            ko "piglit: $name: $res, not $want" \
               "$(grep -a -A3 "^piglit-result $name " "$log" | sed -n '2,4p' | tr '\n' ' ')"
        fi
    done <<EOF
$(subset)
EOF
    echo "piglit: $passes of $total tests pass"
}

if ! err=$(guest_prog_tools "$build"); then
    ko "piglit: $err"
elif ! test -x "$piglit/bin/shader_runner"; then
    ko "piglit: piglit missing (apt-get install piglit)"
elif piglit_initrd; then
    piglit_boot
fi
echo "piglit: $pass passed, $fail failed"
test "$fail" -eq 0
