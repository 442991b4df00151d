#!/bin/sh
# SPDX-License-Identifier: MIT
# An independent guest image against gemu -M g84: Debian's own kernel
# (/boot/vmlinuz-*) with an initramfs made by Debian's own initramfs-tools
# (mkinitramfs with a copy of /etc/initramfs-tools whose "modules" file
# adds nouveau, MODULES=list): Debian's /init, udev, kmod and busybox,
# nothing of gemu's.  gemu only starts QEMU with the card
# (gemu -M g84 -screendump OUT.png -- QEMU-OPTIONS).
#
# The boot: no root= on the command line, so Debian's init says "No root
# device specified" and calls its panic() (a root= naming a missing disk
# would first wait 30 s for it); panic=-1 on the command line makes that
# reboot at once, and -no-reboot makes QEMU exit.  Debian's init reads
# panic= too and then skips its "(initramfs)" shell, which would be of no
# use here: with /dev/console on tty0 it reads the keyboard of tty1 and
# never ends, and without panic= the kernel does not reboot after its own
# panic either (Debian: CONFIG_PANIC_TIMEOUT=0).
# console=ttyS0 console=tty0: the kernel log goes to both, the LAST one
# is /dev/console, so Debian init's own text goes to tty0 only -- the
# framebuffer console nouveau draws -- and the serial log never has it.
# Checks: the serial log shows nouveau's clean probe and fbcon on fb0
# (issue 3 and 4's words, tests/guest/lib/nouveau-checks.sh), and the
# frame gemu dumped at exit shows Debian init's text, read back by OCR
# (tesseract): Linux 6.1 has one console loglevel for all consoles, so
# the kernel log (loglevel 7, for nouveau's info lines) is on the frame
# too and its exact content varies with timing; a golden image would not
# survive a Debian kernel update, the words of initramfs-tools do.
#
# Under TCG every pixel nouveau's fbcon writes is a round trip to gemu:
# a full-screen redraw (fbcon's takeover, or a scroll once the 48 rows
# are full) takes about 30 s.  What the console got before the takeover
# costs nothing more (the takeover draws it); after it about 20 rows are
# free, and this boot prints about 14 there, so nothing scrolls.  A
# scroll printed by the kernel is worse than slow: printk draws with
# interrupts off, so the redraw is a 30 s stall of the only CPU, and
# every watchdog that notices it prints a report whose lines scroll again
# (a CI run once went from one RCU stall report to a boot that never
# ended).  So the watchdogs that could speak during a redraw are off, as
# for "gemu -M g84 -guest" (system/g84.h): "nosoftlockup", the RCU stall
# warning, and the clocksource watchdog ("tsc=reliable"; under TCG its
# reads of the HPET during a redraw come late and it says so).  One boot
# takes about 80 s.
#
# Needs qemu-system-x86, linux-image-amd64, initramfs-tools,
# busybox-static, tesseract-ocr.  Without the kernel, mkinitramfs, QEMU
# or tesseract the checks they need are skipped, or fail when $CI is set.
#   GEMU_BUILD          the build directory (default: build in the tree)
#   GEMU_GUEST_TIMEOUT  bound on the boot in seconds (default: 300)
#   GEMU_GUEST_LOG      keep the serial log, the frame and the OCR text
#                       as PREFIX-debian.log, .png, .txt (default: temp)
# Prints "debian-initramfs: N passed, N failed" last.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${GEMU_BUILD:-$src/build}
case $build in
/*) ;;
*) build=$(pwd)/$build ;;
esac
limit=${GEMU_GUEST_TIMEOUT:-300}
PATH=$PATH:/usr/sbin:/sbin
export PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib/nouveau-checks.sh"

# What the emulated card needs under TCG (see system/g84.h), nouveau's
# options (kmod gives modprobe the "nouveau.*" words of the command
# line), and the boot described above.
append="console=ttyS0 console=tty0 loglevel=7 panic=-1 noresume"
append="$append nosoftlockup irqpoll nolapic_timer nohz=off"
append="$append rcupdate.rcu_cpu_stall_suppress=1 tsc=reliable"
append="$append nouveau.config=NvMSI=0"
# The guest's TSC rate, as gemu gives its own guests (system/g84.h): a
# kernel that measures it at boot on a loaded host can be far off (once
# 83 MHz on a 2.6 GHz host), and its clock then runs fast enough to
# fire its timeouts early.  The host's rate as gemu measures it
# (tests/host-tsc; nothing where it is not known).
if khz=$("$build/tests/host-tsc" 2>/dev/null) && test -n "$khz"; then
    append="$append tsc_early_khz=$khz"
fi

# Debian init's own lines that end on tty0 (initramfs-tools' init and
# scripts/local, stable for years), in lower case, letters only: OCR
# reads most of them exactly; 3 of 5 must be there.
phrases='loadingessentialdrivers mountingrootfilesystem
norootdevicespecified bootargumentsmustincludearoot
rebootingautomaticallyduetopanic'
phrases_needed=3

finish() {
    echo "debian-initramfs: $pass passed, $fail failed"
    test "$fail" -eq 0
    exit
}

# a missing prerequisite: a failure in CI (.ci/run installs them all)
missing() {
    if test -n "${CI:-}"; then
        ko "$*"
    else
        skip "$*"
    fi
}

# The newest kernel in /boot with a nouveau module.
kernel_version() {
    v=
    for k in /boot/vmlinuz-*; do
        echo "${k#/boot/vmlinuz-}"
    done | sort -V > "$tmp/kernels"
    while read -r k; do
        # nouveau.ko, or compressed: nouveau.ko.xz
        for ko in "/lib/modules/$k/kernel/drivers/gpu/drm/nouveau/nouveau.ko"*
        do
            if test -e "$ko"; then
                v=$k
            fi
        done
    done < "$tmp/kernels"
    echo "${v:-}"
}

# Debian's initramfs, made by mkinitramfs from a copy of the machine's
# configuration with nouveau in its modules list.
make_initramfs() {
    cp -R /etc/initramfs-tools "$tmp/conf" || return 1
    mkdir -p "$tmp/conf/conf.d"
    printf '\nnouveau\n' >> "$tmp/conf/modules"
    # the listed modules and what they depend on, not the host's
    echo 'MODULES=list' > "$tmp/conf/conf.d/zz-modules-list"
    mkinitramfs -d "$tmp/conf" -o "$tmp/initrd.img" "$1" \
        > "$tmp/mkinitramfs.log" 2>&1
}

keep() {
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$1" "$GEMU_GUEST_LOG-debian.$2" 2>/dev/null
    fi
}

# The frame shows Debian init's own text: OCR, then the phrases.
frame_text_check() {
    if ! command -v tesseract >/dev/null; then
        missing "$1: tesseract missing (apt-get install tesseract-ocr):" \
                "cannot read the frame"
        return
    fi
    # one thread: much faster on a loaded machine
    if ! OMP_THREAD_LIMIT=1 tesseract "$2" "$tmp/ocr" > "$tmp/ocr.err" 2>&1
    then
        ko "$1: tesseract could not read the frame:" \
           "$(tail -n 1 "$tmp/ocr.err")"
        return
    fi
    keep "$tmp/ocr.txt" txt
    letters=$(LC_ALL=C tr '[:upper:]' '[:lower:]' < "$tmp/ocr.txt" |
              LC_ALL=C tr -cd '[:lower:]')
    found=0
    lost=
    for p in $phrases; do
        case $letters in
        *"$p"*) found=$((found + 1)) ;;
        *) lost="$lost $p" ;;
        esac
    done
    if test "$found" -ge "$phrases_needed"; then
        ok "$1: the frame shows Debian init's text ($found of 5 lines read)"
    else
        ko "$1: the frame does not show Debian init's text" \
           "($found of 5 lines read; missing:$lost)"
        head -c 600 "$tmp/ocr.txt" 2>/dev/null | sed 's/^/    /'
    fi
}

boot() {
    log="$tmp/debian.log"
    shot="$tmp/debian.png"
    timeout -k 10 "$limit" "$build/gemu" -M g84 -display none \
        -screendump "$shot" -- \
        -kernel "/boot/vmlinuz-$kver" -initrd "$tmp/initrd.img" \
        -append "$append" -m 512M -display none -serial stdio \
        -monitor none -nic none -no-reboot </dev/null >"$log" 2>&1
    rc=$?
    keep "$log" log
    keep "$shot" png
    if test $rc -eq 124 || test $rc -eq 137; then
        ko "debian: the guest did not end within $limit s" \
           "(GEMU_GUEST_TIMEOUT): $(tail -n 2 "$log")"
    elif test $rc -eq 0 && grep -q 'reboot: Restarting system' "$log"; then
        ok "debian: Debian's init gave up (no root=), rebooted, QEMU exited"
    else
        ko "debian: the guest did not end cleanly (gemu exit $rc):" \
           "$(tail -n 3 "$log")"
    fi
    probe_checks debian "$log"
    accel_log_checks debian "$log"
    fbcon_log_checks debian "$log"
    screendump_check debian "$log" "$shot" || return
    frame_text_check debian "$shot"
}

if ! test -x "$build/gemu"; then
    ko "no $build/gemu (build first)"
    finish
fi
if ! command -v qemu-system-x86_64 >/dev/null; then
    missing "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
    finish
fi
kver=$(kernel_version)
if test -z "$kver"; then
    missing "no /boot/vmlinuz-* with a nouveau module" \
            "(apt-get install linux-image-amd64)"
    finish
fi
if ! test -r "/boot/vmlinuz-$kver"; then
    missing "/boot/vmlinuz-$kver is not readable by $(id -un)"
    finish
fi
if ! command -v mkinitramfs >/dev/null || ! test -d /etc/initramfs-tools
then
    missing "mkinitramfs missing (apt-get install initramfs-tools)"
    finish
fi
if ! make_initramfs "$kver"; then
    ko "mkinitramfs -d CONF -o IMAGE $kver failed:"
    tail -n 10 "$tmp/mkinitramfs.log" | sed 's/^/    /'
    finish
fi
if lsinitramfs "$tmp/initrd.img" 2>/dev/null | grep -q '/nouveau\.ko'; then
    ok "debian: mkinitramfs made an image of Linux $kver with nouveau"
else
    ko "debian: mkinitramfs made an image without nouveau.ko"
    finish
fi
boot
finish
