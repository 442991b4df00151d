# shellcheck shell=sh
# Guest programs for the tests in tests/guest/*.sh (sourced, not run):
# a C program built here with the host's compiler reaches the guest in
# a second cpio archive appended to the initramfs gemu builds (the
# kernel unpacks both), passed to QEMU as the last -initrd; the guest's
# /init runs it with "gemu.run=PATH" or "-guest-run CMD"
# (docs/g84-guest.md).  POSIX sh; needs busybox (its cpio).
#
# Gives:
#   guest_prog_build OUT SRC [ARG...]
#                       ${CC:-cc} -O2 -o OUT SRC ARG...; on failure the
#                       compiler's first 3 lines on stdout, status 1
#   guest_base_initrd BUILD
#                       the path of gemu's guest initramfs (BUILD/gemu
#                       makes it, without booting, if it is missing or
#                       stale); nothing, status 1, if there is none
#   guest_prog_initrd BASE OUT DIR PROG...
#                       OUT: BASE followed by a newc cpio holding each
#                       PROG as DIR/its name (DIR: bin or usr/bin; DIR's
#                       directories are in the archive too)
#   guest_prog_drm BUILD SRC OUT [ARG...]
#                       the three for a program on nouveau's ioctls: SRC
#                       built statically with libdrm-dev's uapi headers
#                       (and ARG...) as bin/NAME (SRC's name without .c,
#                       built next to OUT) appended to gemu's guest
#                       initramfs in OUT; on failure one line saying why
#                       on stdout, status 1
#
# SPDX-License-Identifier: MIT

guest_prog_build() {
    _gp_out=$1
    _gp_src=$2
    shift 2
    _gp_log=$(mktemp)
    if ! "${CC:-cc}" -O2 -o "$_gp_out" "$_gp_src" "$@" 2>"$_gp_log"; then
        head -n 3 "$_gp_log"
        rm -f "$_gp_log"
        return 1
    fi
    rm -f "$_gp_log"
}

guest_base_initrd() {
    # gemu builds (or finds) its guest initramfs before it starts QEMU
    "$1/gemu" -display none -M g84 -guest -qemu true >/dev/null 2>&1
    _gp_cache=${XDG_CACHE_HOME:-$HOME/.cache}/gemu
    # shellcheck disable=SC2012
    _gp_base=$(ls -t "$_gp_cache"/g84-guest-*.cpio 2>/dev/null | head -n 1)
    test -n "$_gp_base" || return 1
    echo "$_gp_base"
}

guest_prog_initrd() {
    _gp_base=$1
    _gp_out=$2
    _gp_dir=$3
    shift 3
    _gp_root=$(mktemp -d)
    mkdir -p "$_gp_root/$_gp_dir"
    _gp_list=
    _gp_d=
    for _gp_part in $(echo "$_gp_dir" | tr '/' ' '); do
        _gp_d=${_gp_d:+$_gp_d/}$_gp_part
        _gp_list="$_gp_list$_gp_d
"
    done
    for _gp_prog in "$@"; do
        cp "$_gp_prog" "$_gp_root/$_gp_dir/" || {
            rm -rf "$_gp_root"
            return 1
        }
        _gp_list="$_gp_list$_gp_dir/$(basename "$_gp_prog")
"
    done
    if ! (cd "$_gp_root" && printf '%s' "$_gp_list" |
          busybox cpio -o -H newc) >"$_gp_root.cpio" 2>/dev/null; then
        rm -rf "$_gp_root" "$_gp_root.cpio"
        return 1
    fi
    cat "$_gp_base" "$_gp_root.cpio" >"$_gp_out"
    _gp_rc=$?
    rm -rf "$_gp_root" "$_gp_root.cpio"
    return $_gp_rc
}

guest_prog_drm() {
    _gp_build=$1
    _gp_src=$2
    _gp_initrd=$3
    shift 3
    _gp_name=$(basename "$_gp_src" .c)
    _gp_bin=$(dirname "$_gp_initrd")/$_gp_name
    # shellcheck disable=SC2046
    if ! _gp_err=$(guest_prog_build "$_gp_bin" "$_gp_src" -static \
                   $(pkg-config --cflags libdrm 2>/dev/null) "$@"); then
        echo "cannot build $_gp_name.c statically: $_gp_err"
        return 1
    fi
    if ! _gp_base=$(guest_base_initrd "$_gp_build"); then
        echo "gemu made no guest initramfs in" \
             "${XDG_CACHE_HOME:-$HOME/.cache}/gemu"
        return 1
    fi
    if ! guest_prog_initrd "$_gp_base" "$_gp_initrd" bin "$_gp_bin"; then
        echo "cannot append $_gp_name to $_gp_base"
        return 1
    fi
}
