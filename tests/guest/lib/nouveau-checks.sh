# shellcheck shell=sh
# Checks shared by the guest tests in tests/guest/*.sh (sourced, not run):
# the counters, and what a serial log must show when Debian's nouveau
# probes the emulated G84 and puts fbcon on it.  POSIX sh.
#
# Gives:
#   ok MESSAGE...       print "PASS: MESSAGE", count a pass
#   ko MESSAGE...       print "FAIL: MESSAGE", count a failure
#   skip MESSAGE...     print "SKIP: MESSAGE" (counted as neither)
#   png_size FILE       "W H" of a PNG (from its IHDR chunk), or nothing
#   screendump_check NAME LOG PNG   -screendump wrote a 1024x768 PNG
#   probe_checks NAME LOG   nouveau's probe: the chip, the VBIOS, the VRAM,
#                       the DRM device, no nouveau line with a complaint
#   fbcon_log_checks NAME LOG   fbcon on nouveau's framebuffer, no EVO
#                       notifier or base channel timeout
#   accel_log_checks NAME LOG   nouveau with acceleration: TTM copies with
#                       M2MF, and nothing of what nouveau prints when the
#                       GPU misbehaves (GPU lockup, failed to idle channel,
#                       PFIFO and PGRAPH errors, timeouts)
#
#   tty0text            the line the guest writes to /dev/tty0 (gemu.tty0=,
#                       _ for spaces) in the frame tests/images/g84-fbcon.png
#                       shows, for the tests that compare with it
#
# SPDX-License-Identifier: MIT

pass=0
fail=0
tty0text='Hello_from_the_emulated_G84:_0123456789_ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'

ok() {
    echo "PASS: $*"
    pass=$((pass + 1))
}

ko() {
    echo "FAIL: $*"
    fail=$((fail + 1))
}

skip() {
    echo "SKIP: $*"
}

png_size() {
    # shellcheck disable=SC2046
    set -- $(od -An -tu1 -j16 -N8 "$1" 2>/dev/null)
    test $# -eq 8 || return
    echo "$(( ($1 << 24) | ($2 << 16) | ($3 << 8) | $4 ))" \
         "$(( ($5 << 24) | ($6 << 16) | ($7 << 8) | $8 ))"
}

screendump_check() {
    size=$(png_size "$3")
    if test "$size" = "1024 768"; then
        ok "$1: -screendump wrote a 1024x768 PNG of head 0"
    else
        ko "$1: -screendump: no 1024x768 PNG (size '${size}'):" \
           "$(grep -a 'screendump' "$2" | tail -n 1)"
        return 1
    fi
}

probe_checks() {
    for want in 'NVIDIA G84 (084000a2)' 'bios: version' 'fb: 256 MiB' \
                '[drm] Initialized nouveau'; do
        if grep -qF "$want" "$2"; then
            ok "$1: '$want'"
        else
            ko "$1: no '$want' in the log"
        fi
    done
    bad=$(grep -ai 'nouveau' "$2" |
          grep -iE 'timeout|stalled|failed|error|unable|trapped')
    if test -z "$bad"; then
        ok "$1: no nouveau line with" \
           "timeout/stalled/failed/error/unable/trapped"
    else
        ko "$1: nouveau complains:"
        echo "$bad" | head -n 10 | sed 's/^/    /'
    fi
}

accel_log_checks() {
    if grep -qF 'MM: using M2MF for buffer copies' "$2"; then
        ok "$1: 'MM: using M2MF for buffer copies'"
    else
        ko "$1: TTM does not copy with M2MF:" \
           "$(grep -a 'MM: using' "$2" | head -n 1)"
    fi
    for what in 'GPU lockup' 'failed to idle channel' \
                'fifo: .*[Ee][Rr][Rr][Oo][Rr]' 'fifo: intr' 'DMA_PUSHER' \
                'CACHE_ERROR' ' gr: ' 'TRAP' \
                '[Tt][Ii][Mm][Ee][Oo][Uu][Tt]'; do
        bad=$(grep -a -e "$what" "$2")
        if test -z "$bad"; then
            ok "$1: no '$what' in the log"
        else
            ko "$1: the log has '$what' ($(echo "$bad" | wc -l)" \
               "lines), the first:"
            echo "$bad" | head -n 3 | sed 's/^/    /'
        fi
    done
}

fbcon_log_checks() {
    if grep -qF 'fbcon: nouveaudrmfb (fb0) is primary device' "$2"; then
        ok "$1: 'fbcon: nouveaudrmfb (fb0) is primary device'"
    else
        ko "$1: fbcon did not take nouveau's framebuffer"
    fi
    bad=$(grep -aE 'notifier timeout|base-[0-9]: timeout' "$2")
    if test -z "$bad"; then
        ok "$1: no EVO notifier or base channel timeout"
    else
        ko "$1: $(echo "$bad" | head -n 1)"
    fi
}
