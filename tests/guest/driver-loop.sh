#!/bin/sh
# SPDX-License-Identifier: MIT
# The driver developer's loop (issue 13): gemu's guest around the user's
# kernel, modules and files, checked without a person.
#
# Without a boot ("-qemu true"): the errors of -guest-kernel (missing, not
# a bzImage, a .config beside it without DEVTMPFS), -guest-modules (no
# lib/modules, modules for another version, no nouveau in modules.dep, a
# nouveau.ko whose vermagic names another kernel), -guest-files (not a
# cpio archive), -screendump/-compare/-compare-tolerance/-summary; and
# -summary's JSON of a run whose guest gave no status (125); the
# guest's tsc_early_khz= as gemu hands it to QEMU (tsc_checks).
#
# Boot "own": Debian's bzImage given as -guest-kernel, a module tree made
# here as "make modules_install INSTALL_MOD_PATH=DIR" would leave it
# (Debian's modules, nouveau xz-compressed under updates/gemu-test/, with
# its modules.dep: nothing compiles a kernel), a -guest-files directory
# with a marker file.  The guest's command checks that it got the marker
# and that /init loaded the tree's nouveau, asks for a screendump with
# /bin/gemu-screendump (compared with tests/images/g84-fbcon.png: must be
# the same) and for one nobody wants (exit 1), writes a made-up nouveau
# complaint to the kernel log and exits 0.  The screendump after the
# command is compared with the golden frame with a 10x10 red square
# painted in: it must differ by exactly those 100 pixels, a difference
# image beside it, and gemu must exit with 122.  The -summary JSON is
# checked field by field (jq).
#
# Boot "debian": Debian's kernel and modules, -guest-files as a cpio
# archive, -guest-run 'exit 7': gemu exits 7 (the guest's status wins
# over the checks); screendumps at frame 1, after the command (compared
# with a golden whose square is off by 2/255: same within
# -compare-tolerance 2) and at exit.
#
# Needs qemu-system-x86, linux-image-amd64, busybox-static, xz-utils,
# cpio, imagemagick, jq.  Two boots, ~1 min each.
#   GEMU_BUILD, GEMU_GUEST_TIMEOUT, GEMU_GUEST_LOG as nouveau-probe.sh
# Prints "driver-loop: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
limit=${GEMU_GUEST_TIMEOUT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/guest/lib/nouveau-checks.sh"
golden="$src/tests/images/g84-fbcon.png"
# own-guest archives and this run's files stay out of the user's cache
export XDG_CACHE_HOME="$tmp/cache"

# expect NAME STATUS PATTERN -- GEMU-ARGS...: gemu exits with STATUS and
# says PATTERN (a grep -E pattern)
expect() {
    name=$1 want=$2 pat=$3
    shift 4
    out=$("$build/gemu" -display none "$@" 2>&1)
    rc=$?
    if test "$rc" = "$want" && printf '%s\n' "$out" | grep -qE -- "$pat"; then
        ok "errors: $name"
    else
        ko "errors: $name: exit $rc, wanted $want and /$pat/: $out"
    fi
}

# jqcheck NAME FILE FILTER: FILTER (a jq expression) is true of FILE
jqcheck() {
    if jq -e "$3" "$2" >/dev/null 2>&1; then
        ok "$1: summary: $3"
    else
        ko "$1: summary: not $3 in $(tr -d '\n' <"$2" | head -c 600)"
    fi
}

# The modules tree: Debian's nouveau and its dependencies under
# $tmp/tree/lib/modules/$ver, nouveau compressed in updates/gemu-test.
make_tree() {
    ver=$1 root=$2
    line=$(grep '/nouveau\.ko:' "/lib/modules/$ver/modules.dep")
    dir="$root/lib/modules/$ver"
    mkdir -p "$dir/updates/gemu-test"
    for m in ${line#*:}; do
        mkdir -p "$dir/$(dirname "$m")"
        cp "/lib/modules/$ver/$m" "$dir/$m"
    done
    xz -c "/lib/modules/$ver/${line%%:*}" \
        >"$dir/updates/gemu-test/nouveau.ko.xz"
    echo "updates/gemu-test/nouveau.ko.xz:${line#*:}" >"$dir/modules.dep"
}

error_checks() {
    ver=$1 kernel=/boot/vmlinuz-$1
    expect "-guest-kernel: a missing file" 1 \
        "-guest-kernel $tmp/none: No such file" -- \
        -M g84 -guest-kernel "$tmp/none" -qemu true
    expect "-guest-kernel: not a bzImage" 1 'not an x86 bzImage' -- \
        -M g84 -guest-kernel "$src/README.md" -qemu true
    mkdir -p "$tmp/k"
    ln -s "$kernel" "$tmp/k/bzImage"
    mkdir -p "$tmp/k/noconf"
    ln -s "$kernel" "$tmp/k/noconf/bzImage"
    grep -v '^CONFIG_DEVTMPFS=' "/boot/config-$ver" >"$tmp/k/.config"
    expect "-guest-kernel: a .config without DEVTMPFS" 1 \
        'lacks CONFIG_DEVTMPFS=y .*mounts devtmpfs' -- \
        -M g84 -guest-kernel "$tmp/k/bzImage" -qemu true
    mkdir -p "$tmp/kb" "$tmp/other/lib/modules/0.0.1-other"
    ln -s "$kernel" "$tmp/kb/bzImage"
    sed 's/^CONFIG_DRM_NOUVEAU=m$/CONFIG_DRM_NOUVEAU=y/' \
        "/boot/config-$ver" >"$tmp/kb/.config"
    expect "-guest-kernel: nouveau built in needs no modules" 0 '' -- \
        -M g84 -guest-kernel "$tmp/kb/bzImage" -guest-modules "$tmp/other" \
        -qemu true
    expect "-guest-kernel: no .config, no modules: the hint" 1 \
        "put the kernel's .config beside it" -- \
        -M g84 -guest-kernel "$tmp/k/noconf/bzImage" -guest-modules \
        "$tmp/other" -qemu true
    expect "-guest-modules: no lib/modules" 1 'no lib/modules in it' -- \
        -M g84 -guest-modules "$tmp/k" -qemu true
    expect "-guest-modules: modules of another kernel" 1 \
        "no modules for the kernel $ver .*has modules for 0.0.1-other" -- \
        -M g84 -guest-kernel "$kernel" -guest-modules "$tmp/other" \
        -qemu true
    mkdir -p "$tmp/nonv/lib/modules/$ver"
    echo 'kernel/fs/fat/fat.ko:' >"$tmp/nonv/lib/modules/$ver/modules.dep"
    expect "-guest-modules: no nouveau in modules.dep" 1 \
        "no nouveau module for the kernel $ver" -- \
        -M g84 -guest-modules "$tmp/nonv" -qemu true
    make_tree "$ver" "$tmp/wrong"
    other="x${ver#?}"
    xz -dc "$tmp/wrong/lib/modules/$ver/updates/gemu-test/nouveau.ko.xz" |
        LC_ALL=C sed "s/vermagic=$ver /vermagic=$other /" |
        xz -c >"$tmp/wrong.xz"
    mv "$tmp/wrong.xz" "$tmp/wrong/lib/modules/$ver/updates/gemu-test/nouveau.ko.xz"
    expect "-guest-modules: a nouveau.ko built for another kernel" 1 \
        "built for the kernel $other, not for $ver" -- \
        -M g84 -guest-modules "$tmp/wrong" -qemu true
    expect "-guest-files: not a cpio archive" 1 \
        'neither a directory nor a cpio archive' -- \
        -M g84 -guest-files "$src/README.md" -qemu true
    expect "-screendump: a bad when=" 1 'frame:N or request' -- \
        -M g84 -screendump when=soon,file=x.png -qemu true
    expect "-screendump when=run without -guest-run" 1 \
        'needs -guest-run' -- -M g84 -screendump when=run,file=x.png \
        -qemu true
    expect "-compare: a missing golden image" 1 "golden image $tmp/none" \
        -- -M g84 -screendump x.png -compare "$tmp/none" -qemu true
    expect "-compare-tolerance 256" 1 'a number from 0 to 255' -- \
        -M g84 -screendump x.png -compare "$golden" \
        -compare-tolerance 256 -qemu true
    expect "-compare on sgx543" 1 'option of the g84 machine' -- \
        -M sgx543 -compare "$golden"
    expect "-screendump when= on sgx543" 1 'the g84 machine.s' -- \
        -M sgx543 -screendump when=exit,file=x.png
    expect "-summary of a guest that gave no status" 125 \
        'without the command.s exit status' -- \
        -M g84 -guest-run true -summary "$tmp/none.json" -qemu true
    jqcheck errors "$tmp/none.json" \
        '.exit_status == 125 and .guest_exit_status == null and .screendumps == [] and .nouveau_errors == []'
    expect "-summary without -guest" 0 '' -- \
        -M g84 -summary "$tmp/noguest.json" -qemu true
    jqcheck errors "$tmp/noguest.json" \
        '.exit_status == 0 and .nouveau_errors == null and .frames_compared == 0'
    tsc_checks
}

# tsc_khz GEMU-ARGS...: the guest's tsc_early_khz= values as gemu hands
# them to QEMU (a "QEMU" that keeps its arguments), one per line
tsc_khz() {
    rm -f "$tmp/qemu-args"
    "$build/gemu" -display none -M g84 -guest-kernel "$tmp/kb/bzImage" \
        -guest-modules "$tmp/other" -qemu "$tmp/qemu-args.sh" "$@" \
        >/dev/null 2>&1
    sed -n '/^-append$/{n;p}' "$tmp/qemu-args" 2>/dev/null |
        tr ' ' '\n' | sed -n 's/^tsc_early_khz=//p'
}

# The guest's TSC rate on its command line (system/g84.h): a guest
# kernel that measures it at boot on a loaded host can be far off, and
# its clock then runs fast.  -icount's 1 GHz under -clock virtual, the
# host's rate under TCG (x86-64 hosts with constant_tsc), none with the
# user's accelerator; -guest-append's own value comes after gemu's.
tsc_checks() {
    printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\n' "$tmp/qemu-args" \
        >"$tmp/qemu-args.sh"
    chmod +x "$tmp/qemu-args.sh"
    got=$(tsc_khz -clock virtual)
    if test "$got" = 1000000; then
        ok "tsc: -clock virtual gives the guest tsc_early_khz=1000000"
    else
        ko "tsc: -clock virtual: tsc_early_khz '$got', not 1000000"
    fi
    got=$(tsc_khz)
    if test "$(uname -m)" = x86_64 &&
       grep -q ' constant_tsc' /proc/cpuinfo; then
        # the host's own idea of its TSC, where the kernel says it
        host=$(sed -n 's/^cpu MHz[^0-9]*\([0-9]*\).*/\1/p' /proc/cpuinfo |
               head -n 1)
        if test -n "$got" && test "$got" -gt 100000 &&
           test "$got" -lt 10000000; then
            ok "tsc: the host's TSC rate for the guest: $got kHz" \
               "(cpu MHz $host)"
        else
            ko "tsc: the host's TSC rate: '$got' kHz"
        fi
    elif test -z "$got"; then
        ok "tsc: no constant TSC here: no tsc_early_khz"
    else
        ko "tsc: tsc_early_khz '$got' on a host without constant_tsc"
    fi
    got=$(tsc_khz -- -accel kvm)
    if test -z "$got"; then
        ok "tsc: the user's accelerator: no tsc_early_khz"
    else
        ko "tsc: with -accel kvm: tsc_early_khz '$got'"
    fi
    got=$(tsc_khz -clock virtual -guest-append tsc_early_khz=5 |
          tr '\n' ' ')
    if test "$got" = "1000000 5 "; then
        ok "tsc: -guest-append's tsc_early_khz comes last (the kernel's)"
    else
        ko "tsc: with -guest-append tsc_early_khz=5: '$got'"
    fi
}

# run NAME STATUS -- GEMU-ARGS...: a boot; gemu must exit with STATUS
run() {
    name=$1 want=$2
    shift 3
    log="$tmp/$name.log"
    timeout -k 10 "$limit" "$build/gemu" -display none -M g84 "$@" \
        </dev/null >"$log" 2>&1
    rc=$?
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$log" "$GEMU_GUEST_LOG-$name.log"
    fi
    if test "$rc" = "$want"; then
        ok "$name: gemu exited with $want"
    else
        ko "$name: gemu exited with $rc, not $want: $(tail -n 3 "$log")"
    fi
}

# has NAME TEXT: the log of NAME has the line TEXT (the console's CRs
# dropped)
has() {
    if tr -d '\r' <"$tmp/$1.log" | grep -qxF -- "$2"; then
        ok "$1: '$2'"
    else
        ko "$1: no line '$2' in the log"
    fi
}

own_boot() {
    ver=$1
    make_tree "$ver" "$tmp/tree"
    mkdir -p "$tmp/files/etc"
    echo "gemu-test-marker $$" >"$tmp/files/etc/gemu-test-marker"
    convert "$golden" -fill '#ff0000' -draw 'rectangle 0,700 9,709' \
        "$tmp/red-golden.png"
    # shellcheck disable=SC2016
    run own 122 -- -guest-kernel "/boot/vmlinuz-$ver" \
        -guest-modules "$tmp/tree" -guest-files "$tmp/files" \
        -guest-append "gemu.tty0=$tty0text" \
        -screendump "when=request:fbcon,file=$tmp/fbcon.png,compare=$golden" \
        -screendump "when=run,file=$tmp/after.png" \
        -compare "$tmp/red-golden.png" -summary "$tmp/own.json" \
        -guest-run 'cat /etc/gemu-test-marker
            grep gemu-test /etc/gemu-modules
            grep -q "^nouveau " /proc/modules && echo "nouveau: loaded"
            gemu-screendump fbcon; echo "request: status $?"
            gemu-screendump nobody 2>&1; echo "unwanted: status $?"
            echo "nouveau gemu-test: a \"made-up\" error \\ end" >/dev/kmsg
            exit 0'
    has own "gemu-test-marker $$"
    has own "updates/gemu-test/nouveau.ko"
    has own "nouveau: loaded"
    has own "request: status 0"
    has own "gemu-screendump: none"
    has own "unwanted: status 1"
    grep -v 'gemu-test' "$tmp/own.log" >"$tmp/own-kernel.log"
    probe_checks own "$tmp/own-kernel.log"
    if cmp -s "$tmp/fbcon.png" "$golden"; then
        ok "own: the requested screendump is the golden frame"
    else
        ko "own: the requested screendump differs from $golden"
    fi
    if test "$(png_size "$tmp/after-diff.png")" = "1024 768"; then
        ok "own: a 1024x768 difference image beside after.png"
    else
        ko "own: no difference image $tmp/after-diff.png"
    fi
    if grep -q 'after.png differs from .*red-golden.png: 100 pixels' \
        "$tmp/own.log"; then
        ok "own: gemu says after.png differs by 100 pixels"
    else
        ko "own: $(grep -a 'differs\|same as' "$tmp/own.log")"
    fi
    j="$tmp/own.json"
    jqcheck own "$j" '.exit_status == 122 and .guest_exit_status == 0'
    jqcheck own "$j" '.frames_compared == 2 and .frames_differing == 1'
    jqcheck own "$j" '.worst_pixel_difference == 255'
    jqcheck own "$j" '.nouveau_errors | length == 1 and (.[0] | endswith("nouveau gemu-test: a \"made-up\" error \\ end"))'
    jqcheck own "$j" '.screendumps[0] | .when == "request:fbcon" and .same and .frame >= 1'
    jqcheck own "$j" '.screendumps[1] | .when == "run" and (.same | not) and .pixels_differing == 100 and (.diff_image | endswith("after-diff.png"))'
    jqcheck own "$j" '.run_time_s > 0 and .screendump_failures == 0'
}

debian_boot() {
    mkdir -p "$tmp/cpio/usr/share/gemu-test"
    echo "from a cpio archive" >"$tmp/cpio/usr/share/gemu-test/hello"
    (cd "$tmp/cpio" && find . | cpio -o -H newc --quiet) >"$tmp/files.cpio"
    convert "$golden" -fill '#020202' -draw 'rectangle 0,700 9,709' \
        "$tmp/dim-golden.png"
    run debian 7 -- -guest-files "$tmp/files.cpio" \
        -guest-append "gemu.tty0=$tty0text" \
        -screendump "when=frame:1,file=$tmp/frame1.png" \
        -screendump "when=run,file=$tmp/run.png,compare=$tmp/dim-golden.png" \
        -compare-tolerance 2 -screendump "$tmp/exit.png" \
        -summary "$tmp/debian.json" \
        -guest-run 'cat /usr/share/gemu-test/hello; exit 7'
    has debian "from a cpio archive"
    has debian "gemu-guest: -guest-run exited with status 7"
    for f in frame1 run exit; do
        if test "$(png_size "$tmp/$f.png")" = "1024 768"; then
            ok "debian: $f.png, 1024x768"
        else
            ko "debian: no 1024x768 $f.png"
        fi
    done
    if test -e "$tmp/run-diff.png"; then
        ko "debian: a difference image within the tolerance"
    else
        ok "debian: no difference image within the tolerance"
    fi
    j="$tmp/debian.json"
    jqcheck debian "$j" '.exit_status == 7 and .guest_exit_status == 7'
    jqcheck debian "$j" '.frames_compared == 1 and .frames_differing == 0 and .worst_pixel_difference == 2'
    jqcheck debian "$j" '.nouveau_errors == []'
    jqcheck debian "$j" '[.screendumps[].when] == ["frame:1", "run", "exit"]'
    jqcheck debian "$j" '.screendumps[0].frame >= 1 and .screendumps[1].same'
}

ver=$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort | tail -n 1)
if ! test -x "$build/gemu"; then
    ko "no $build/gemu (build first)"
elif test -z "$ver" || ! test -e "/lib/modules/$ver/modules.dep"; then
    ko "no Debian kernel with modules (apt-get install linux-image-amd64)"
else
    missing=
    for t in qemu-system-x86_64 xz cpio convert jq; do
        command -v $t >/dev/null || missing="$missing $t"
    done
    if test -n "$missing"; then
        ko "missing:$missing (.ci/debian-packages)"
    else
        error_checks "$ver"
        own_boot "$ver"
        debian_boot
    fi
fi
echo "driver-loop: $pass passed, $fail failed"
test "$fail" -eq 0
