#!/usr/bin/env bash
# Disassembles the machine code C2 made of some methods in a JMH run, and counts the instructions from each one's entry
# to its first return (for a method whose rare branches jump to traps placed after it, that is its hot path).
#
#   jmh/hot-path-asm.sh '*::*_jmhStub,dev.sluice.engine.EngineLimiter::acquireLong' \
#       'HotKeyBenchmark\.t1$' -p impl=SLUICE -p algorithm=TOKEN_BUCKET -p regime=ADMIT
#
# The first argument: method patterns of -XX:CompileCommand, separated by commas. The JMH stub (*_jmhStub) holds the
# benchmark loop and whatever C2 inlined into it; a method it calls instead shows as a call, and is worth listing too.
# Needs objdump and xxd, not hsdis: the JVM prints the code as hex (-XX:CompileCommand=print) and objdump decodes it
# (x86-64 only). The JVM's own output goes to jmh/target/asm/vm.log, away from JMH's. Takes the last full (not OSR)
# C2 compilation of each method, from one fork of 4 x 1 s warmup and 1 x 1 s measurement. jmh/EXPERIMENTS.md, "the
# token bucket's compiled hot path", reads its output.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 2 ]]; then
    echo "usage: $0 'package.Class::method[,...]' JMH-ARGS..." >&2
    exit 2
fi
methods=$1
shift
prints=""
IFS=, read -ra patterns <<< "$methods"
for m in "${patterns[@]}"; do
    prints="$prints -XX:CompileCommand=print,$m"
done
[[ $(uname -m) == x86_64 ]] || { echo "$0: decodes x86-64 code only" >&2; exit 2; }
for tool in objdump xxd; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (Debian: binutils, xxd)" >&2; exit 2; }
done
jar=jmh/target/benchmarks.jar
[[ -f $jar ]] || mvn -B -q -DskipTests -pl core,jmh -am package
out=jmh/target/asm
mkdir -p "$out"
rm -f "$out"/vm.log "$out"/*.hex "$out"/*.bin "$out"/*.s
"${JAVA:-java}" -jar "$jar" "$@" -f 1 -wi 4 -w 1s -i 1 -r 1s -jvmArgsAppend \
    "-XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=quiet $prints \
     -XX:+LogVMOutput -XX:-DisplayVMOutput -XX:LogFile=$PWD/$out/vm.log" > "$out/jmh.log"
grep -E 'ops/s|ns/op' "$out/jmh.log" | tail -1

# Per method: the last "Compiled method (c2)" block that is not an OSR compilation ("%"), as the address of its first
# byte, of its verified entry point, and its code bytes in hex.
awk -v dir="$out" '
    /^Compiled method \(c2\)/ {
        inside = $0 !~ / % /
        if (inside) {
            name = $0; sub(/ \([0-9]+ bytes\).*/, "", name); sub(/.*::/, "", name)
            hex = ""; base = ""; entry = ""
        }
        next
    }
    /^Compiled method/ { inside = 0; next }
    !inside { next }
    /\[Verified Entry Point\]/ { wantEntry = 1; next }
    /\[Stub Code\]|\[\/MachCode\]/ {
        inside = 0
        file = dir "/" name ".hex"
        print base > file; print entry > file; print hex > file; close(file)
        next
    }
    /^  0x[0-9a-f]+: / {
        addr = substr($1, 3, length($1) - 3)
        sub(/^0+/, "", addr)
        if (wantEntry) { entry = addr; wantEntry = 0 }
        bytes = ""
        for (i = 2; i <= NF; i++) {
            if ($i == "|") continue
            if ($i !~ /^[0-9a-f][0-9a-f]([0-9a-f][0-9a-f])?$/) break
            bytes = bytes $i
        }
        if (bytes == "") next
        if (base == "") base = addr
        hex = hex bytes
    }
' "$out/vm.log"

found=0
for hexfile in "$out"/*.hex; do
    [[ -e $hexfile ]] || continue
    found=1
    name=$(basename "$hexfile" .hex)
    base=$(sed -n 1p "$hexfile")
    entry=$(sed -n 2p "$hexfile")
    sed -n 3p "$hexfile" | xxd -r -p > "$out/$name.bin"
    objdump -D -b binary -mi386:x86-64 -Mintel --adjust-vma="0x$base" "$out/$name.bin" \
        | sed -n '/<.data>:/,$p' > "$out/$name.s"
    # One pass over the listing: the instructions from the entry to the first ret; in a JMH stub also the benchmark
    # loop, the smallest loop holding a CAS or a call (the decision, inlined or called), as the static instructions
    # between a backward jump and its target.
    awk -v entry="$entry" -v name="$name" -v bytes="$(stat -c %s "$out/$name.bin")" -v listing="$out/$name.s" '
        function hex(s,    i, v) {
            v = 0
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v
        }
        $1 ~ /^[0-9a-f]+:$/ && split($0, field, "\t") >= 3 {
            at[++n] = substr($1, 1, length($1) - 1); addr[n] = hex(at[n])
            if (at[n] == entry) on = 1
            if (on && count == "") { run++; if ($0 ~ /\tret/) count = run }
            if ($0 ~ /lock cmpxchg|\tcall /) work[n] = 1
            if ($0 ~ /\tj[a-z]+ +0x[0-9a-f]+/) {
                t = $0; sub(/.*\tj[a-z]+ +0x/, "", t)
                if (hex(t) < addr[n]) back[n] = t
            }
        }
        END {
            printf "== %s: %d bytes of code; %s instructions from the entry (0x%s) to the first ret; listing: %s\n", \
                name, bytes, count == "" ? "?" : count, entry, listing
            if (name !~ /_jmhStub$/) exit
            best = 0
            for (i = 1; i <= n; i++) if (i in back) {
                first = 0; holds = 0
                for (j = 1; j <= i; j++) {
                    if (addr[j] >= hex(back[i])) { if (!first) first = j; if (j in work) holds = 1 }
                }
                if (holds && (best == 0 || i - first + 1 < best)) { best = i - first + 1; from = back[i]; to = at[i] }
            }
            if (best) printf "   benchmark loop: 0x%s-0x%s, %d instructions (a call counts as one)\n", \
                from, to, best
        }
    ' "$out/$name.s"
done
if [[ $found == 0 ]]; then
    echo "$0: no C2 compilation of $methods in $out/vm.log" >&2
    exit 1
fi
