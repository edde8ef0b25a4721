# Sourced by run-report.sh and contention-study.sh (not run on its own): what every heavy JMH script does first.

# Re-runs the calling script under /tmp/sluice-heavy.lock (flock), so that no other heavy job on a shared machine
# runs between its benchmarks; a script that already holds the lock goes on.
hold_heavy_lock() {
  local lock=/tmp/sluice-heavy.lock
  if [[ -z "${SLUICE_HEAVY_LOCK_HELD:-}" ]]; then
    echo "waiting for $lock"
    exec env SLUICE_HEAVY_LOCK_HELD=1 flock "$lock" "$0" "$@"
  fi
}

# Builds the benchmarks jar $1 if it is missing or older than the sources (run from the repository root).
build_jar_if_stale() {
  local jar="$1"
  if [[ ! -f "$jar" ]] || [[ -n "$(find core/src jmh/src jmh/pom.xml core/pom.xml pom.xml -newer "$jar" -type f 2>/dev/null | head -1)" ]]; then
    echo "== building $jar"
    mvn -B -q -pl jmh -am package -DskipTests
  fi
}
