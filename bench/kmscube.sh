#!/bin/sh
# make bench: kmscube's frames per second in gemu's Mesa guest, on the
# emulated G84 (g84-kmscube) and, in the same guest image, on llvmpipe
# under plain QEMU with bochs-display (llvmpipe-kmscube: Mesa's software
# rasteriser on the same TCG vCPU; tests/guest/lib/llvmpipe-ref.sh).
# kmscube -c 200 at 1024x768; the figure is kmscube's own last
# "Rendered N frames in S sec (F fps)" (its first frame, shader
# compilation, left out by kmscube).  Two guest boots, ~3 minutes.
# Skipped (a line saying why) without qemu-system-x86_64 or kmscube.
#   GEMU_BUILD  the build directory (make sets it)
# SPDX-License-Identifier: MIT
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/guest/lib/guest-prog.sh"
. "$src/tests/guest/lib/llvmpipe-ref.sh"

# kms-hold.so (tests/guest/kms-hold.c) on both: bookworm's kmscube
# passes an invalid modifier to AddFB2 when the driver reports none
# (llvmpipe); the shim drops it (and holds nothing: 0 s)
cmd='mkfifo /tmp/kin; KMS_HOLD_SECONDS=0 LD_PRELOAD=/usr/bin/kms-hold.so kmscube -c 200 -v 1024x768 0<>/tmp/kin'

fps() {
    tr -d '\r' <"$1" | sed -n 's/^Rendered [0-9]* frames in .* (\([0-9.]*\) fps)$/\1/p' |
        tail -n 1
}

if ! command -v qemu-system-x86_64 >/dev/null ||
   ! command -v kmscube >/dev/null || ! test -x "$build/gemu"; then
    echo "g84-kmscube: skipped (qemu-system-x86_64, kmscube or $build/gemu missing)"
    exit 0
fi
if ! initrd=$(guest_mesa_initrd "$build"); then
    echo "g84-kmscube: FAILED: $initrd"
    exit 1
fi
# shellcheck disable=SC2046
if ! err=$(guest_prog_build "$tmp/kms-hold.so" "$src/tests/guest/kms-hold.c" \
           -shared -fPIC $(pkg-config --cflags libdrm 2>/dev/null) -ldl) ||
   ! guest_prog_initrd "$initrd" "$tmp/initrd.cpio" usr/bin \
       "$tmp/kms-hold.so"; then
    echo "g84-kmscube: FAILED: cannot build kms-hold.so: $err"
    exit 1
fi
timeout -k 10 600 "$build/gemu" -display none -M g84 -guest-mesa \
    -guest-run "$cmd" -- -initrd "$tmp/initrd.cpio" </dev/null \
    >"$tmp/g84.log" 2>&1
f=$(fps "$tmp/g84.log")
if test -z "$f"; then
    echo "g84-kmscube: FAILED: no 'Rendered' line: $(tail -n 2 "$tmp/g84.log")"
    exit 1
fi
echo "g84-kmscube: $f fps"
kver=$(basename "$initrd" | sed 's/^g84-mesa-guest-\(.*\)-[0-9a-f]*\.cpio$/\1/')
if ! err=$(llvmpipe_ref_initrd "$tmp/initrd.cpio" "$tmp/ref.cpio" "$kver") ||
   ! err=$(llvmpipe_ref_run "$kver" "$tmp/ref.cpio" "$cmd" - \
           "$tmp/ref.log" 600); then
    echo "llvmpipe-kmscube: FAILED: $err"
    exit 1
fi
f=$(fps "$tmp/ref.log")
echo "llvmpipe-kmscube: ${f:-?} fps (the same guest image on plain QEMU," \
     "bochs-display)"
