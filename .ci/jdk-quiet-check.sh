#!/usr/bin/env bash
# Runs a small program on the core jar with the default backend on the given JDK and fails if it prints anything on
# stderr (on JDK 24+, touching sun.misc.Unsafe's memory access prints warnings there), once as is and once granted
# native access, where on JDK 22+ the FFM backend must reach memory by address (and must still print nothing).
set -euo pipefail
cd "$(dirname "$0")/.."
java_home=${1:?usage: jdk-quiet-check.sh JAVA_HOME}
jar=$(ls core/target/sluice-core-*.jar | grep -v -e sources -e javadoc | head -1)
version=$("$java_home/bin/java" -version 2>&1 | head -1)
feature=$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
err=$(mktemp)
out=$(mktemp)
for grant in no yes; do
  flags=()
  expected="FFM by address: false"
  if [ "$grant" = yes ]; then
    flags=(--enable-native-access=ALL-UNNAMED)
    if [ "$feature" -ge 22 ]; then expected="FFM by address: true"; fi
  fi
  "$java_home/bin/java" "${flags[@]}" -cp "$jar" .ci/QuietStart.java >"$out" 2>"$err"
  if [ -s "$err" ]; then
    echo "stderr was not empty on $version (native access granted: $grant):"
    cat "$err"
    exit 1
  fi
  if ! grep -qx "$expected" "$out"; then
    echo "expected '$expected' on $version (native access granted: $grant), got:"
    cat "$out"
    exit 1
  fi
  echo "stderr empty on $version (native access granted: $grant; $expected)"
done
