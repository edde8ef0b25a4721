#!/usr/bin/env bash
# Runs a small program on the core jar with the default backend on the given JDK and fails if it prints anything on
# stderr (on JDK 24+, touching sun.misc.Unsafe's memory access prints warnings there).
set -euo pipefail
cd "$(dirname "$0")/.."
java_home=${1:?usage: jdk-quiet-check.sh JAVA_HOME}
jar=$(ls core/target/sluice-core-*.jar | grep -v -e sources -e javadoc | head -1)
err=$(mktemp)
"$java_home/bin/java" -cp "$jar" .ci/QuietStart.java 2>"$err"
if [ -s "$err" ]; then
  echo "stderr was not empty on $("$java_home/bin/java" -version 2>&1 | head -1):"
  cat "$err"
  exit 1
fi
echo "stderr empty on $("$java_home/bin/java" -version 2>&1 | head -1)"
