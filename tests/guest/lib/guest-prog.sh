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
#                       stale); if there is none, what gemu said, status 1
#   guest_mesa_initrd BUILD
#                       the same for gemu's Mesa guest (-guest-mesa: the
#                       guest's archive followed by Mesa's userspace)
#   guest_prog_initrd BASE OUT DIR PROG...
#                       OUT: BASE followed by a newc cpio holding each
#                       PROG as DIR/its name (DIR: bin or usr/bin; DIR's
#                       directories are in the archive too)
#   guest_prog_tools BUILD
#                       what a guest test with a program needs: BUILD/gemu,
#                       qemu-system-x86_64 and busybox; else one line
#                       naming what is missing on stdout, status 1
#   guest_prog_drm BUILD SRC OUT [ARG...]
#                       the three for a program on nouveau's ioctls: SRC
#                       built statically with libdrm-dev's uapi headers
#                       (and ARG...) as bin/NAME (SRC's name without .c,
#                       built next to OUT) appended to gemu's guest
#                       initramfs in OUT; on failure one line saying why
#                       on stdout, status 1
#
# SPDX-License-Identifier: MIT

guest_prog_tools() {
    if ! test -x "$1/gemu"; then
        echo "no $1/gemu (build first)"
    elif ! command -v qemu-system-x86_64 >/dev/null; then
        echo "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
    elif ! command -v busybox >/dev/null; then
        echo "busybox missing (apt-get install busybox-static)"
    else
        return 0
    fi
    return 1
}

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

# the newest $XDG_CACHE_HOME/gemu/$2-*.cpio, once BUILD/gemu with
# options $3 (and -qemu true: no boot) has made or found it; else what
# gemu said, status 1
guest_cached_initrd() {
    # shellcheck disable=SC2086
    _gp_said=$("$1/gemu" -display none -M g84 $3 -qemu true 2>&1)
    _gp_cache=${XDG_CACHE_HOME:-$HOME/.cache}/gemu
    # shellcheck disable=SC2012
    _gp_base=$(ls -t "$_gp_cache"/"$2"-*.cpio 2>/dev/null | head -n 1)
    if test -z "$_gp_base"; then
        echo "gemu made no $2 initramfs in $_gp_cache:" \
             "$(echo "$_gp_said" | grep -v 'without the command' |
                head -n 3 | tr '\n' ' ')"
        return 1
    fi
    echo "$_gp_base"
}

guest_base_initrd() {
    # gemu builds (or finds) its guest initramfs before it starts QEMU
    guest_cached_initrd "$1" g84-guest -guest
}

guest_mesa_initrd() {
    guest_cached_initrd "$1" g84-mesa-guest "-guest-mesa -guest-run true"
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
