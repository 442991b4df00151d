#!/bin/sh
# Command-line tests of gemu-dis and gemu-as: listing format, input forms,
# option and file errors, assembling a file and reading it back.
#
#   GEMU_BUILD  the build directory (default: build)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
dis=$(cd "$build" && pwd)/gemu-dis
as=$(cd "$build" && pwd)/gemu-as

# listing: address, words (a short insn's second column blank), text
out=$(printf '20000005 0x04000781 10008404\n' | "$dis" -m tesla -V g84 -O cp)
exp="00000000: 20000005 04000781     exit add b32 \$r1 \$r0 \$r0
00000008: 10008404              mov b32 \$r1 \$r2"
check "hex listing" "$exp" "$out"

# raw binary input and a base address
printf '\004\204\000\020' > "$tmp/one.bin"
out=$("$dis" -b -a 100 "$tmp/one.bin")
check "binary input" "00000100: 10008404              mov b32 \$r1 \$r2" "$out"

# a variant lacking an instruction shows envydis' markers
out=$(echo 'b0000002' | "$dis" -V g80)
check "variant gating" "00000000: b0000002              ??? [unknown: b0000002] [unknown instruction]" "$out"

# errors: exit status 2 and a message
"$dis" -m nosuch </dev/null >/dev/null 2>"$tmp/err"
check "bad -m status" 2 $?
grep -q 'unsupported architecture' "$tmp/err"
check "bad -m message" 0 $?
"$dis" -V g99 </dev/null >/dev/null 2>&1
check "bad -V" 2 $?
"$dis" "$tmp/missing" >/dev/null 2>&1
check "missing file" 2 $?
echo 'zz12' | "$dis" >/dev/null 2>&1
check "bad hex word" 2 $?
"$dis" -q </dev/null >/dev/null 2>&1
check "bad option" 2 $?

# assemble a file with labels, binary out, read back
cat > "$tmp/p.s" <<'EOS'
// copy and exit
start:
    mov b32 $r1 $r2
    (e $c0) bra start
    exit nop
EOS
"$as" -m tesla -V g84 -O cp "$tmp/p.s" -o "$tmp/p.bin"
check "gemu-as status" 0 $?
out=$("$dis" -b "$tmp/p.bin" | cut -c33-)
exp="mov b32 \$r1 \$r2
(e \$c0) bra 0x0
exit nop"
check "assemble and disassemble" "$exp" "$out"
# the branch target is marked B, as envydis marks it
out=$("$dis" -b "$tmp/p.bin" | head -n 1)
check "branch target mark" \
    "00000000: 10000405 0403c780   B mov b32 \$r1 \$r2" "$out"
# a call target is marked C and starts a paragraph
out=$(printf 'call 0x10\nexit nop\nexit nop\n' > "$tmp/c.s" &&
      "$as" -m tesla "$tmp/c.s" | "$dis")
exp="00000000: 20002003 00000000     call 0x10
00000008: f0000001 e0000781     exit nop

00000010: f0000001 e0000781  C  exit nop"
check "call target mark" "$exp" "$out"
# a listing assembles again, columns and marks skipped
printf 'call 0x10\nexit nop\nexit nop\n' > "$tmp/c.s"
"$as" -m tesla "$tmp/c.s" | "$dis" > "$tmp/c.lst"
check "listing re-assembles" "$("$as" -m tesla "$tmp/c.s")" \
    "$("$as" -m tesla "$tmp/c.lst")"
out=$("$as" -x "$tmp/p.s")
exp="10000405 0403c780
10000003 00000100
f0000001 e0000781"
check "hex output" "$exp" "$out"

# an error names file and line
printf 'nop\nfrob $r1\n' > "$tmp/bad.s"
"$as" "$tmp/bad.s" -o "$tmp/bad.bin" 2>"$tmp/err"
check "gemu-as error status" 1 $?
grep -q "bad.s:2: " "$tmp/err"
check "gemu-as error names file:line" 0 $?
"$as" -m nosuch "$tmp/p.s" >/dev/null 2>&1
check "gemu-as bad -m" 2 $?

# hostile input (issue 14): a 2 MB line is an error naming the line (not
# quoting it whole); label-only lines are labels
awk 'BEGIN { printf "nop\nmov b32 $r1"; for (i = 0; i < 524288; i++)
             printf " $r2"; printf "\n" }' > "$tmp/long.s"
"$as" "$tmp/long.s" >/dev/null 2>"$tmp/err"
check "gemu-as 2 MB line status" 1 $?
check "gemu-as 2 MB line message" "$tmp/long.s:2: line too long" \
    "$(cat "$tmp/err")"
printf 'abc:\ntrap\nend:\n' > "$tmp/label.s"
check "gemu-as label-only lines" "90000002" "$("$as" "$tmp/label.s" 2>&1)"

finish gemu-dis-as
