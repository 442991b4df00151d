# shellcheck shell=sh
# The reference side of tests/guest/mesa.sh (sourced, not run): the same
# guest image -- the kernel, gemu's Mesa initramfs and the test's own
# cpio -- booted by plain QEMU with its "bochs-display" (no gemu), where
# Mesa's kms_swrast renders with llvmpipe.  A program run there under
# kms-hold.so (tests/guest/kms-hold.c) holds its last frame; QEMU's
# monitor dumps it.  POSIX sh; needs qemu-system-x86 and busybox, and
# lib/guest-prog.sh sourced first.
#
# Gives:
#   llvmpipe_ref_initrd BASE OUT KVER
#                       OUT: BASE followed by a newc cpio with the two
#                       modules bochs-display needs that gemu's guest
#                       lacks (drm_vram_helper, bochs; from
#                       /lib/modules/KVER) in /lib/modules-ref/
#   llvmpipe_ref_run KVER INITRD CMD OUT.png LOG LIMIT
#                       boots /boot/vmlinuz-KVER with INITRD and the
#                       kernel command line gemu's guest gets, runs CMD
#                       (a shell command line, after the modules are
#                       loaded) and, the first time the serial console
#                       says "kms-hold: holding", writes what the display
#                       shows to OUT.png; then waits for the guest to
#                       power off (CMD done); OUT.png "-": no frame.
#                       The console goes to LOG.
#                       Status 1, with a line saying why, if there is no
#                       frame or the guest is still up after LIMIT
#                       seconds.
#
# SPDX-License-Identifier: MIT

llvmpipe_ref_initrd() {
    _lr_mods=/lib/modules/$3/kernel/drivers/gpu/drm
    for _lr_m in drm_vram_helper.ko tiny/bochs.ko; do
        if ! test -f "$_lr_mods/$_lr_m"; then
            echo "no $_lr_mods/$_lr_m"
            return 1
        fi
    done
    if ! guest_prog_initrd "$1" "$2" lib/modules-ref \
            "$_lr_mods/drm_vram_helper.ko" "$_lr_mods/tiny/bochs.ko"; then
        echo "cannot append the bochs modules to $1"
        return 1
    fi
}

llvmpipe_ref_run() {
    _lr_kver=$1
    _lr_initrd=$2
    _lr_out=$4
    _lr_log=$5
    _lr_limit=$6
    # bochs-display's DRM driver, then CMD (base64 on the command line,
    # as gemu's -guest-run passes it: /init runs it and powers off)
    _lr_cmd="insmod /lib/modules-ref/drm_vram_helper.ko
insmod /lib/modules-ref/bochs.ko
for i in 1 2 3 4 5 6 7 8 9 10; do test -c /dev/dri/card0 && break; sleep 1; done
$3"
    _lr_b64=$(printf '%s' "$_lr_cmd" | base64 -w 0)
    _lr_dir=$(mktemp -d)
    mkfifo "$_lr_dir/mon"
    # shellcheck disable=SC2086
    timeout -k 10 "$_lr_limit" qemu-system-x86_64 -M pc -m 1024 \
        -accel tcg -no-reboot -display none -nodefaults \
        -kernel "/boot/vmlinuz-$_lr_kver" -initrd "$_lr_initrd" \
        -append "console=ttyS0 panic=-1 gemu.runb64=$_lr_b64" \
        -device bochs-display,xres=1024,yres=768 \
        -serial "file:$_lr_log" -monitor stdio \
        <"$_lr_dir/mon" >"$_lr_dir/qemu.out" 2>&1 &
    _lr_pid=$!
    exec 4>"$_lr_dir/mon"
    while test "$_lr_out" != - && kill -0 $_lr_pid 2>/dev/null &&
          ! grep -aq '^kms-hold: holding' "$_lr_log" 2>/dev/null; do
        sleep 1
    done
    _lr_rc=1
    if test "$_lr_out" = -; then
        _lr_rc=0
    elif grep -aq '^kms-hold: holding' "$_lr_log" 2>/dev/null; then
        printf 'screendump %s -f png\n' "$_lr_out" >&4
        # the monitor's next prompt comes once the file is written
        for _lr_i in 1 2 3 4 5 6 7 8 9 10; do
            test "$(grep -a -o '(qemu)' "$_lr_dir/qemu.out" | wc -l)" -ge 2 &&
                break
            sleep 1
        done
        test -s "$_lr_out" && _lr_rc=0
    fi
    # the rest of CMD; the guest powers off at its end
    wait $_lr_pid
    _lr_st=$?
    exec 4>&-
    if test $_lr_rc -ne 0; then
        echo "no llvmpipe frame: $(tail -n 2 "$_lr_log" | tr -d '\r')" \
             "$(grep -a -i 'error' "$_lr_dir/qemu.out" | head -n 1)"
    elif test $_lr_st -ne 0; then
        echo "the reference guest did not end well (QEMU's status" \
             "$_lr_st; 124: still up after $_lr_limit s):" \
             "$(tail -n 2 "$_lr_log" | tr -d '\r')"
        _lr_rc=1
    fi
    rm -rf "$_lr_dir"
    return $_lr_rc
}
