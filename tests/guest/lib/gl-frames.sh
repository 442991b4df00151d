# shellcheck shell=sh
# Frames that tests/guest/gl-frames.c printed on a guest's console
# (sourced, not run).  POSIX sh; needs base64 and ImageMagick.
#
# Gives:
#   gl_frames_extract LOG OUTDIR
#                       every "gl-frame N W H" ... "gl-frame-end N" block
#                       of LOG (carriage returns dropped) as OUTDIR/N.png,
#                       top row first; prints the frame numbers written
#   gl_frames_compare A.png B.png FUZZ
#                       prints "FAR PEAK": how many pixels of A and B
#                       differ by more than FUZZ% in a channel and the
#                       largest difference (0-1); "error ..." if they
#                       cannot be compared
#
# SPDX-License-Identifier: MIT

gl_frames_extract() {
    mkdir -p "$2"
    tr -d '\r' <"$1" | awk -v dir="$2" '
        /gl-frame [0-9]+ [0-9]+ [0-9]+$/ {
            # the program may have printed before it on the line
            split(substr($0, match($0, /gl-frame [0-9]+ [0-9]+ [0-9]+$/)),
                  f, " ")
            n = f[2]; w = f[3]; h = f[4]; out = dir "/" n ".b64"; next
        }
        /^gl-frame-end / {
            if (out != "") {
                close(out); print n, w, h; out = ""
            }
            next
        }
        # a kernel message (a printk time stamp, then text) that cut
        # into a line of the frame under load: its text dropped, the
        # base64 around it kept
        out != "" { sub(/\[ *[0-9]+\.[0-9]+\] .*/, ""); print > out }' |
    while read -r _gf_n _gf_w _gf_h; do
        if base64 -d <"$2/$_gf_n.b64" >"$2/$_gf_n.rgb" 2>/dev/null &&
           convert -size "${_gf_w}x$_gf_h" -depth 8 "rgb:$2/$_gf_n.rgb" \
               -flip "$2/$_gf_n.png" 2>/dev/null; then
            echo "$_gf_n"
        fi
        rm -f "$2/$_gf_n.b64" "$2/$_gf_n.rgb"
    done
}

gl_frames_compare() {
    _gf_far=$(compare -metric AE -fuzz "$3%" "$1" "$2" null: 2>&1)
    _gf_peak=$(compare -metric PAE "$1" "$2" null: 2>&1 |
               sed 's/.*(\(.*\))/\1/')
    case $_gf_far in
    ''|*[!0-9]*) echo "error $_gf_far" ;;
    *) echo "$_gf_far $_gf_peak" ;;
    esac
}
