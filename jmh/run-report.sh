#!/usr/bin/env bash
# Runs the Sluice JMH suite and writes jmh/results/REPORT.md with its charts.
#
#   jmh/run-report.sh quick   every benchmark, short iterations, fewer params (under 10 minutes on 2 cores)
#   jmh/run-report.sh full    every benchmark and param, 2 x 1 s warmup + 3 x 1 s measurement, memory at 1M and 10M
#                             keys (about 32 minutes on 2 cores)
#   jmh/run-report.sh smoke   CI: every benchmark, 1 fork, 1 iteration of 100 ms, 10,000 keys; fails if any
#                             benchmark errors; results in jmh/target/smoke-results (not committed)
#   jmh/run-report.sh jdk25   only the memory backends on JDK 25 (FFM beside UNSAFE and VAR_HANDLE, 3 forks, about
#                             10 minutes), added to the committed results as section 5b; quick and full add it too
#
# Builds jmh/target/benchmarks.jar if it is missing or older than the sources. The whole run holds
# /tmp/sluice-heavy.lock (flock), so that no other heavy job on a shared machine runs between its benchmarks; do not
# wrap this script in the same lock. JAVA (default: java), JAVA25 (default: the first JDK 25 under /usr/lib/jvm) and
# JMH_EXTRA (extra JMH options, e.g. "-t 1") may be set.
set -euo pipefail

# shellcheck source=jmh/heavy-run.sh
source "$(dirname "$0")/heavy-run.sh"
hold_heavy_lock "$@"

cd "$(dirname "$0")/.."
PROFILE="${1:-quick}"
JAVA="${JAVA:-java}"
JAR=jmh/target/benchmarks.jar
START=$(date +%s)

case "$PROFILE" in
  quick|full|jdk25) OUT=jmh/results ;;
  smoke) OUT=jmh/target/smoke-results ;;
  *) echo "usage: $0 quick|full|smoke|jdk25" >&2; exit 2 ;;
esac
JAVA25="${JAVA25:-$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -1 || true)}"
JDK25_HOME="$(dirname "$(dirname "$JAVA25")")"

build_jar_if_stale "$JAR"
# The FFM backend is in the jar only when core was built on a JDK 22+ (its multi-release layer).
if [[ "$PROFILE" != smoke && -x "$JAVA25" \
      && -z "$("$JDK25_HOME/bin/jar" tf "$JAR" | grep 'META-INF/versions/22/dev/sluice/table/FfmMemory.class')" ]]; then
  echo "== building $JAR on $JDK25_HOME for its FFM layer"
  JAVA_HOME="$JDK25_HOME" mvn -B -q -pl jmh -am package -DskipTests
fi

mkdir -p "$OUT"
if [[ "$PROFILE" != jdk25 ]]; then # jdk25 adds to the results there, the others replace them
  rm -f "$OUT"/jmh-*.json "$OUT"/memory.tsv "$OUT"/*.png "$OUT"/REPORT.md "$OUT"/jfr-top.md
  rm -rf "$OUT"/jfr
  # The study's forks belong to the run before this one: the report must not judge this run's targets on them.
  rm -rf "$OUT"/contention
fi
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

# Fail on any benchmark error; -prof gc everywhere for B/op.
COMMON=(-foe true -prof gc)
case "$PROFILE" in
  quick) ITER=(-f 1 -wi 1 -w 300ms -i 2 -r 300ms) ;;
  full) ITER=(-f 1 -wi 2 -w 1s -i 3 -r 1s) ;;
  smoke) ITER=(-f 1 -wi 0 -i 1 -r 100ms -p keys=10000) ;;
  jdk25) ITER=(-f 3 -wi 3 -w 1s -i 5 -r 1s) ;;
esac
# shellcheck disable=SC2206
EXTRA=(${JMH_EXTRA:-})

REFERENCE_NOTE=""
impls() { echo "$1"; }
HOT_IMPLS=$(impls SLUICE,SLUICE_CALLER_TIME,REFERENCE)
MANY_IMPLS=$(impls SLUICE,SLUICE_CALLER_TIME,SLUICE_DECISION,REFERENCE,BUCKET4J_LOCK_FREE,BUCKET4J_SYNCHRONIZED,RESILIENCE4J,GUAVA)
LATENCY_IMPLS=$(impls SLUICE,SLUICE_CALLER_TIME,REFERENCE,BUCKET4J_LOCK_FREE,BUCKET4J_SYNCHRONIZED,RESILIENCE4J,GUAVA)

JMH_SECONDS=0
jmh() { # jmh NAME [JMH args...]: one JMH invocation writing $OUT/jmh-NAME.json
  local name="$1"; shift
  local t0; t0=$(date +%s)
  echo "== jmh $name: $*"
  "${JMH_JAVA:-$JAVA}" -jar "$JAR" "$@" "${COMMON[@]}" "${ITER[@]}" "${EXTRA[@]}" \
    -rf json -rff "$OUT/jmh-$name.json" > "$OUT/jmh-$name.log" 2>&1 || {
      echo "JMH run $name failed; last lines of $OUT/jmh-$name.log:" >&2; tail -40 "$OUT/jmh-$name.log" >&2; exit 1; }
  JMH_SECONDS=$((JMH_SECONDS + $(date +%s) - t0))
}

case "$PROFILE" in
  full|smoke)
    jmh hotkey 'HotKeyBenchmark' -p impl="$HOT_IMPLS"
    jmh competitors 'HotKeyCompetitorsBenchmark'
    jmh manykeys 'ManyKeysBenchmark' -p impl="$MANY_IMPLS"
    jmh service 'ServiceBenchmark'
    jmh floors 'FloorBenchmark'
    jmh latency 'LatencyBenchmark' -p impl="$LATENCY_IMPLS"
    jmh backends 'BackendBenchmark'
    ;;
  quick)
    # Hot key: every algorithm on 1 and 2 threads; the token bucket (where the competitors are) on 4 and 8 too.
    jmh hotkey 'HotKeyBenchmark\.t[12]$' -p impl="$HOT_IMPLS"
    jmh hotkey-tb 'HotKeyBenchmark\.t[48]$' -p algorithm=TOKEN_BUCKET -p impl="$HOT_IMPLS"
    jmh competitors 'HotKeyCompetitorsBenchmark\.t[124]$'
    # Many keys: uniform with both key types on 1 thread (every implementation); fewer on 2 threads and Zipf.
    jmh manykeys 'ManyKeysBenchmark\.t1$' -p distribution=UNIFORM -p impl="$MANY_IMPLS"
    jmh manykeys-t2 'ManyKeysBenchmark\.t2$' -p distribution=UNIFORM -p keyType=LONG \
      -p impl="$(impls SLUICE,REFERENCE,BUCKET4J_LOCK_FREE,GUAVA)"
    jmh manykeys-zipf 'ManyKeysBenchmark\.t1$' -p distribution=ZIPF -p keyType=LONG \
      -p impl="$(impls SLUICE,SLUICE_CALLER_TIME,REFERENCE,BUCKET4J_LOCK_FREE,GUAVA)"
    jmh service 'ServiceBenchmark\.(t1|t2|decisionT1)$' -p distribution=UNIFORM
    jmh service-zipf 'ServiceBenchmark\.t1$' -p distribution=ZIPF
    jmh floors 'FloorBenchmark' -p distribution=UNIFORM
    jmh floors-zipf 'FloorBenchmark\.cold(Clock)?CasT1$' -p distribution=ZIPF
    jmh latency 'LatencyBenchmark\.t2$' -p impl="$LATENCY_IMPLS"
    jmh backends 'BackendBenchmark'
    ;;
esac

# The memory backends on JDK 25, FFM among them; "backendsJdk25" in meta.properties says when and on what.
BACKENDS_JDK25=""
if [[ "$PROFILE" != smoke ]]; then
  if [[ -x "$JAVA25" ]]; then
    JMH_JAVA="$JAVA25" jmh jdk25-backends 'BackendBenchmark\.(hotKeyT1|manyKeysT1)(NativeAccess)?$' \
      -p backend=FFM,UNSAFE,VAR_HANDLE -p memory=FFM,UNSAFE,VAR_HANDLE
    BACKENDS_JDK25="$(date -u '+%Y-%m-%d %H:%M UTC'), $("$JAVA25" -version 2>&1 | head -1), \`${ITER[*]}\`, load average after $(cut -d' ' -f1-3 /proc/loadavg)"
  elif [[ "$PROFILE" == jdk25 ]]; then
    echo "no JDK 25 under /usr/lib/jvm: set JAVA25 to its java" >&2; exit 1
  else
    echo "no JDK 25 under /usr/lib/jvm (set JAVA25): the report has no section on FFM"
  fi
fi
if [[ "$PROFILE" == jdk25 ]]; then
  sed -i '/^backendsJdk25=/d' "$OUT/meta.properties"
  echo "backendsJdk25=$BACKENDS_JDK25" >> "$OUT/meta.properties"
  echo "== report"
  "$JAVA" -cp "$JAR" dev.sluice.jmh.report.ReportGenerator "$OUT" jmh/ANALYSIS.md
  exit 0
fi

# JFR on the two Sluice cases the targets hinge on (not in smoke: it only checks that benchmarks run).
if [[ "$PROFILE" != smoke ]]; then
  t0=$(date +%s)
  echo "== jfr"
  "$JAVA" -jar "$JAR" 'HotKeyBenchmark\.t1$' -p impl=SLUICE -p algorithm=TOKEN_BUCKET -p regime=ADMIT \
    -f 1 -wi 1 -w 1s -i 3 -r 1s -prof "jfr:dir=$OUT/jfr" > "$OUT/jfr-hotkey.log" 2>&1
  "$JAVA" -jar "$JAR" 'ManyKeysBenchmark\.t1$' -p impl=SLUICE -p keyType=STRING -p distribution=UNIFORM \
    -f 1 -wi 1 -w 1s -i 3 -r 1s -prof "jfr:dir=$OUT/jfr" > "$OUT/jfr-manykeys.log" 2>&1
  JMH_SECONDS=$((JMH_SECONDS + $(date +%s) - t0))
fi

# Memory per key: one JVM per line.
MEM_START=$(date +%s)
case "$PROFILE" in
  quick) KEY_COUNTS=(1000000) ;;
  full) KEY_COUNTS=(1000000 10000000) ;;
  smoke) KEY_COUNTS=(10000) ;;
esac
memory() { # memory IMPL ALGORITHM KEYTYPE KEYS
  local heap=4g
  [[ "$4" -ge 10000000 ]] && heap=16g
  "$JAVA" "-Xmx$heap" -cp "$JAR" dev.sluice.jmh.MemoryPerKey "$@" >> "$OUT/memory.tsv" \
    2>> "$OUT/memory.log" || {
      [[ "$PROFILE" == smoke ]] && { echo "memory run $* failed" >&2; tail -20 "$OUT/memory.log" >&2; exit 1; }
      printf '%s\t%s\t%s\t%s\t-1\t-1\t-1\t-1\tfailed (see memory.log)\n' "$@" >> "$OUT/memory.tsv"; }
}
for keys in "${KEY_COUNTS[@]}"; do
  for impl in $(impls SLUICE,REFERENCE,BUCKET4J_LOCK_FREE,BUCKET4J_SYNCHRONIZED,RESILIENCE4J,GUAVA | tr , ' '); do
    for keyType in LONG STRING; do
      echo "== memory $impl $keyType $keys"
      memory "$impl" TOKEN_BUCKET "$keyType" "$keys"
    done
  done
  memory SLUICE SLIDING_WINDOW_LOG LONG "$keys"
  if [[ -z "$REFERENCE_NOTE" ]]; then memory REFERENCE SLIDING_WINDOW_LOG LONG "$keys"; fi
done
MEM_SECONDS=$(( $(date +%s) - MEM_START ))

TOTAL=$(( $(date +%s) - START ))
{
  echo "profile=$PROFILE"
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "cores=$(nproc)"
  echo "memory=$(free -g | awk '/Mem:/ {print $2 " GiB"}')"
  echo "os=$(uname -sr)"
  echo "command=jmh/run-report.sh $PROFILE"
  echo "jmhOptions=${COMMON[*]} ${ITER[*]} ${EXTRA[*]:-}"
  echo "note=${REFERENCE_NOTE}"
  echo "backendsJdk25=${BACKENDS_JDK25}"
  echo "duration=total ${TOTAL} s (JMH ${JMH_SECONDS} s, memory per key ${MEM_SECONDS} s); load average before ${LOAD_BEFORE}, after $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/meta.properties"

echo "== report"
"$JAVA" -cp "$JAR" dev.sluice.jmh.report.ReportGenerator "$OUT" jmh/ANALYSIS.md
# The recordings are summarised in the report and in jfr-top.md (reused when the report is regenerated); drop them.
rm -rf "$OUT/jfr"
echo "done in ${TOTAL} s: $OUT/REPORT.md"
