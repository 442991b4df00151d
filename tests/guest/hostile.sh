#!/bin/sh
# SPDX-License-Identifier: MIT
# A hostile guest (issue 14): one boot of "gemu -M g84 -guest-run" whose
# command runs drm-hostile (drm-hostile.c, built here statically with
# libdrm-dev's uapi headers, appended to gemu's initramfs by
# lib/guest-prog.sh) twice:
#   - "drm-hostile garbage SEED PUSHES": with nouveau bound, a channel of
#     its own fed garbage push buffers through nouveau's ABI16 ioctls
#     (random words and headers, bad methods and objects, jumps to
#     nowhere, copies from unmapped addresses), then an M2MF copy on a
#     fresh channel, checked word for word;
#   - "drm-hostile storm SEED SECONDS": nouveau unbound through sysfs,
#     random reads and writes at random offsets of BAR0, BAR1 and BAR3
#     (hostile-storm.h, mapped through sysfs resourceN) for SECONDS.
# gemu's monitor is on stdin (a fifo): during the storm the test asks
# "info display", "info channels", "info pgraph" (the engine's state,
# read with the engine paused) and "screendump", and gemu must answer.
# Checked:
#   - gemu exits by itself within the time limit with the command's
#     status (0: both modes did what they should), the guest having
#     powered off ("-guest-run exited with status 0");
#   - gemu's own output (its stderr) has no assert, abort, sanitizer or
#     "BUG" line;
#   - before the garbage, nouveau's clean probe (lib/nouveau-checks.sh);
#   - the garbage's errors reported by nouveau the way the hardware
#     raises them: a PFIFO DMA_PUSHER (the old-style jump) and a PGRAPH
#     ILLEGAL_MTHD (a method M2MF lacks) at least; the counts of each
#     kind of report are printed; no "GPU lockup" (fbcon's own channel
#     kept its acceleration); "drm-hostile: m2mf-after ok";
#   - the storm ran to its end (its counts printed) and the monitor
#     answered "info display", "info channels" and "info pgraph" while
#     it ran; the screendump wrote a PNG or said why not (a random
#     display state may have no frame).
# Printed, not checked: what the guest kernel said during the storm
# (interrupts nobody handles: "irq N: nobody cared").
#
# Needs qemu-system-x86, linux-image-amd64, busybox-static, a C compiler
# with static libc (build-essential), libdrm-dev.  One boot, ~2 min.
#   GEMU_BUILD, GEMU_GUEST_TIMEOUT, GEMU_GUEST_LOG as nouveau-probe.sh
#   (the log kept as PREFIX-hostile.log, gemu's stderr as
#   PREFIX-hostile.err)
#   GEMU_HOSTILE_SEED     the seed of both modes (default 1469; a failure
#                         replays with the seed it printed)
#   GEMU_HOSTILE_PUSHES   garbage push buffers (default 500)
#   GEMU_HOSTILE_SECONDS  the storm's length (default 20)
# Prints "hostile: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
limit=${GEMU_GUEST_TIMEOUT:-300}
seed=${GEMU_HOSTILE_SEED:-1469}
pushes=${GEMU_HOSTILE_PUSHES:-500}
seconds=${GEMU_HOSTILE_SECONDS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/guest/lib/nouveau-checks.sh"
. "$src/tests/guest/lib/guest-prog.sh"

run_cmd="drm-hostile garbage $seed $pushes; g=\$?
echo \"hostile: garbage status \$g\"
drm-hostile storm $seed $seconds; s=\$?
echo \"hostile: storm status \$s\"
exit \$((g | s))"

# The kernel's lines (a printk time stamp on them) of a log
kernel_lines() {
    grep -a -o '\[ *[0-9][0-9]*\.[0-9]*\] .*' "$1"
}

# wait_for TEXT: until the log has TEXT or gemu has ended
wait_for() {
    while kill -0 "$pid" 2>/dev/null && ! grep -aqF "$1" "$log"; do
        sleep 1
    done
    grep -aqF "$1" "$log"
}

hostile_boot() {
    if ! err=$(guest_prog_drm "$build" "$src/tests/guest/drm-hostile.c" \
               "$tmp/initrd.cpio"); then
        ko "$err"
        return
    fi
    log="$tmp/hostile.log"
    errlog="$tmp/hostile.err"
    shot="$tmp/storm.png"
    echo "hostile: seed $seed, $pushes garbage pushes, a $seconds s storm"
    t0=$(date +%s)
    mkfifo "$tmp/mon"
    # the monitor's answers fall between the console's lines (gemu
    # appends to its stdout as QEMU does), after the storm's start
    timeout -k 10 "$limit" "$build/gemu" -display none -monitor stdio \
        -M g84 -guest-run "$run_cmd" -- -initrd "$tmp/initrd.cpio" \
        <"$tmp/mon" >"$log" 2>"$errlog" &
    pid=$!
    # gemu may be gone when the test writes to its monitor: no SIGPIPE
    trap '' PIPE
    exec 3>"$tmp/mon"
    # the monitor, twice during the storm: as it starts and at its first
    # progress line (guest time, which under TCG may run faster than the
    # test's: no sleeps here)
    if wait_for 'drm-hostile: storm: seed'; then
        printf 'info display\n' >&3
        if wait_for 'operations after'; then
            printf 'info channels\ninfo pgraph\nscreendump %s\n' \
                "$shot" >&3
        fi
    fi
    wait_for 'drm-hostile: storm: done' >/dev/null
    exec 3>&-
    wait $pid
    rc=$?
    t1=$(date +%s)
    # the console's line ends are CR LF; a line may follow the
    # monitor's prompt
    tr -d '\r' <"$log" | sed 's/^\((gemu) \)*//' >"$tmp/hostile.txt"
    log="$tmp/hostile.txt"
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$log" "$GEMU_GUEST_LOG-hostile.log"
        cp "$errlog" "$GEMU_GUEST_LOG-hostile.err"
    fi
    echo "hostile: the boot took $((t1 - t0)) s"
    exit_checks
    garbage_checks
    storm_checks
}

exit_checks() {
    case $rc in
    0)  ok "hostile: gemu exited with the command's status 0" ;;
    124|137) ko "hostile: gemu did not end within $limit s:" \
                "$(tail -n 3 "$log")" ;;
    *)  ko "hostile: gemu exited with $rc:" \
           "$(grep -a '^hostile: \|FAIL' "$log" | head -n 4)" ;;
    esac
    if grep -aq '^gemu-guest: -guest-run exited with status' "$log"; then
        ok "hostile: the guest ran the command and powered off"
    else
        ko "hostile: the guest did not finish its command:" \
           "$(tail -n 3 "$log")"
    fi
    # ("BUG" as a word and in capitals: "debug" is no complaint)
    bad=$(grep -a -i -E 'assert|abort|sanitizer|runtime error|segmentation|core dumped' \
          "$errlog"; grep -a -w 'BUG' "$errlog")
    if test -z "$bad"; then
        ok "hostile: gemu's own output has no assert, abort, sanitizer" \
           "or BUG line"
    else
        ko "hostile: gemu's own output:"
        echo "$bad" | head -n 10 | sed 's/^/    /'
    fi
}

garbage_checks() {
    sed -n '1,/drm-hostile: garbage: seed/p' "$log" >"$tmp/probe.log"
    probe_checks hostile "$tmp/probe.log"
    sed -n '/drm-hostile: garbage: seed/,/drm-hostile: storm: /p' "$log" |
        kernel_lines /dev/stdin >"$tmp/garbage.log"
    grep -a '^drm-hostile: garbage' "$log" | sed 's/^/    /'
    echo "hostile: what nouveau reported about the garbage:"
    for what in DMA_PUSHER CACHE_ERROR ILLEGAL_MTHD ILLEGAL_CLASS \
                DATA_ERROR TRAP_M2MF 'TRAP' 'fault' ' gr: ' 'fifo: '; do
        echo "    '$what': $(grep -ac -e "$what" "$tmp/garbage.log") lines"
    done
    for want in DMA_PUSHER ILLEGAL_MTHD; do
        line=$(grep -a -m1 -e "$want" "$tmp/garbage.log")
        if test -n "$line"; then
            ok "hostile: nouveau reported $want: ${line#*] }"
        else
            ko "hostile: nouveau reported no $want for the garbage"
        fi
    done
    if grep -aq 'GPU lockup' "$log"; then
        ko "hostile: $(grep -a -m1 'GPU lockup' "$log")"
    else
        ok "hostile: no 'GPU lockup' (fbcon kept its acceleration)"
    fi
    line=$(grep -a -m1 '^drm-hostile: m2mf-after' "$log")
    case $line in
    *'m2mf-after ok'*) ok "hostile: ${line#drm-hostile: }" ;;
    '') ko "hostile: no m2mf-after result:" \
           "$(grep -a '^drm-hostile: \|^hostile: garbage' "$log" |
              tail -n 2)" ;;
    *)  ko "hostile: ${line#drm-hostile: }" ;;
    esac
}

storm_checks() {
    grep -a '^drm-hostile: storm' "$log" | sed 's/^/    /'
    if grep -aq '^drm-hostile: storm: done' "$log"; then
        ok "hostile: the storm ran to its end"
    else
        ko "hostile: the storm did not end:" \
           "$(grep -a '^drm-hostile: \|^hostile: storm' "$log" | tail -n 2)"
    fi
    sed -n '/drm-hostile: storm: seed/,$p' "$log" >"$tmp/storm.log"
    if grep -aq "console 0 'g84 head 0'" "$tmp/storm.log"; then
        ok "hostile: the monitor answered 'info display' during the storm:" \
           "$(grep -a -m1 -o "console 0 'g84 head 0'.*" "$tmp/storm.log")"
    else
        ko "hostile: no answer to 'info display' during the storm"
    fi
    # both answers end on the engine's state ("engine: running")
    n=$(grep -a -c 'engine: ' "$tmp/storm.log")
    if grep -aq 'FIFO_ACCESS' "$tmp/storm.log" && test "$n" -ge 2; then
        ok "hostile: the monitor answered 'info channels' and 'info pgraph'" \
           "during the storm"
    else
        ko "hostile: no answer to 'info channels' and 'info pgraph'" \
           "during the storm ($n 'engine: ' lines)"
    fi
    if test -s "$shot" && test -n "$(png_size "$shot")"; then
        ok "hostile: the storm's screendump wrote a $(png_size "$shot" |
            tr ' ' x) PNG"
    elif grep -aq 'screendump: ' "$tmp/storm.log"; then
        ok "hostile: the storm's screendump said why not:" \
           "$(grep -a -m1 -o 'screendump: .*' "$tmp/storm.log")"
    else
        ko "hostile: no answer to 'screendump' during the storm"
    fi
    echo "hostile: what the guest kernel said during the storm:"
    kernel_lines "$tmp/storm.log" | head -n 15 | sed 's/^/    /'
}

if ! err=$(guest_prog_tools "$build"); then
    ko "$err"
else
    hostile_boot
fi
echo "hostile: $pass passed, $fail failed"
test "$fail" -eq 0
