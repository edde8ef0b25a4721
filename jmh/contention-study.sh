#!/usr/bin/env bash
# Why the contended hot-key results of the report vary by about 2x from fork to fork (read in jmh/ANALYSIS.md).
#
#   1. JMH: floor (a), and every algorithm of Sluice and of the reference in both regimes, on 2, 4 and 8 threads,
#      FORKS forks each (default 4, run in FORKS rounds of one fork of every configuration), 1 x 1 s warmup +
#      2 x 1 s measurement; then each fork's mean (ForkSpread).
#      The same on 1 thread, with Sluice given the caller's time too and the CAS-alone floor (forks-t1.*).
#      The same for 1M uniform keys on 1 thread (long and String keys, Sluice and the reference) with their floors
#      (forks-many.*). And Sluice's token bucket and the competitors on the hot key, 1 to 8 threads, each round's
#      forks of them in one JMH run, after 3 x 1 s warmup (forks-competitors.*).
#      ReportGenerator judges the hot-key, many-key and competitor targets on the median of these per-fork means.
#   2. ContentionProbe, RUNS JVMs (default 3) of PROBE_SECONDS (default 60): the cost of moving a cache line between
#      the two threads, floor (a), Sluice and the reference in turn, 100 ms each, in one JVM.
#
# Writes jmh/results/contention/ (committed with the report). About 45 minutes on 2 cores with the defaults; run it
# after run-report.sh (which clears jmh/results), then regenerate the report:
#   java -cp jmh/target/benchmarks.jar dev.sluice.jmh.report.ReportGenerator jmh/results jmh/ANALYSIS.md
# Holds /tmp/sluice-heavy.lock like run-report.sh; do not wrap it in that lock.
set -euo pipefail

# shellcheck source=jmh/heavy-run.sh
source "$(dirname "$0")/heavy-run.sh"
hold_heavy_lock "$@"

cd "$(dirname "$0")/.."
JAVA="${JAVA:-java}"
JAR=jmh/target/benchmarks.jar
OUT=jmh/results/contention
FORKS="${FORKS:-4}"
RUNS="${RUNS:-3}"
PROBE_SECONDS="${PROBE_SECONDS:-60}"

build_jar_if_stale "$JAR"
rm -rf "$OUT"
mkdir -p "$OUT"
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "forks=$FORKS (in $FORKS rounds of one fork per configuration) runs=$RUNS probe_seconds=$PROBE_SECONDS"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/meta.txt"

# One fork of every configuration per round, FORKS rounds: a slow stretch of the shared host then falls on every
# configuration alike, where FORKS forks in a row would put it on some and not on others. Each JMH run writes
# NAME-roundN.json; ForkStudy (ForkSpread, ReportGenerator) gathers each configuration's forks from the rounds.
jmh_round() { # NAME ROUND JMH_ARGS...
  local name=$1 round=$2
  shift 2
  echo "-- round $round: $name" >> "$OUT/$name.log"
  "$JAVA" -jar "$JAR" "$@" -f 1 -w 1s -i 2 -r 1s -foe true -rf json -rff "$OUT/$name-round$round.json" \
    >> "$OUT/$name.log" 2>&1
}

for ((r = 1; r <= FORKS; r++)); do
  echo "== JMH, round $r of $FORKS: one fork of every configuration"
  # Floor (a) and every algorithm of Sluice and the reference, both regimes, on 2, 4 and 8 threads.
  jmh_round forks "$r" 'FloorBenchmark\.hotClockCasT[248]$|HotKeyBenchmark\.t[248]$' -p impl=SLUICE,REFERENCE -wi 1
  # The same on 1 thread, with Sluice given the caller's time too and the CAS-alone floor.
  jmh_round forks-t1 "$r" 'FloorBenchmark\.hot(Clock)?CasT1$|HotKeyBenchmark\.t1$' \
    -p impl=SLUICE,SLUICE_CALLER_TIME,REFERENCE -wi 1
  # 1M uniform keys, 1 thread, long and String keys, with their floors.
  jmh_round forks-many "$r" 'FloorBenchmark\.cold(String|StringBytes)?ClockCasT1$|ManyKeysBenchmark\.t1$' \
    -p impl=SLUICE,REFERENCE -p keyType=LONG,STRING -p distribution=UNIFORM -wi 1
  # Sluice's token bucket and the competitors on the hot key, 1 to 8 threads, each pair minutes apart. 3 warmup
  # iterations, not 1: the competitors run at a fraction of their speed for their first 2 s (their JIT).
  jmh_round forks-competitors "$r" 'HotKeyBenchmark\.t[1248]$' -p algorithm=TOKEN_BUCKET \
    -p impl=SLUICE,BUCKET4J_LOCK_FREE,BUCKET4J_SYNCHRONIZED,RESILIENCE4J,GUAVA -wi 3
done
for name in forks forks-t1 forks-many forks-competitors; do
  echo "== $name: each configuration's forks"
  "$JAVA" -cp "$JAR" dev.sluice.jmh.report.ForkSpread "$OUT/$name.json" | tee "$OUT/$name.md"
done

for ((i = 1; i <= RUNS; i++)); do
  echo "== ContentionProbe, JVM $i of $RUNS"
  "$JAVA" -cp "$JAR" dev.sluice.jmh.analysis.ContentionProbe "$PROBE_SECONDS" 100 > "$OUT/probe-$i.tsv"
  grep '^#' "$OUT/probe-$i.tsv"
done
echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/meta.txt"
