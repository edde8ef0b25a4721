#!/usr/bin/env bash
# Compiles and runs a modular application that requires dev.sluice.core from the module path, on the given JDK: as is,
# and granted native access by module name, where on JDK 22+ FFM must reach memory by address, printing nothing on
# stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
java_home=${1:?usage: modular-check.sh JAVA_HOME}
jar=$(ls core/target/sluice-core-*.jar | grep -v -e sources -e javadoc | head -1)
out=$(mktemp -d)
"$java_home/bin/javac" --module-path "$jar" -d "$out" .ci/modular-app/module-info.java .ci/modular-app/example/Main.java
"$java_home/bin/java" --module-path "$jar:$out" -m sluice.example/example.Main
feature=$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
err=$(mktemp)
granted=$("$java_home/bin/java" --enable-native-access=dev.sluice.core --module-path "$jar:$out" \
  -m sluice.example/example.Main 2>"$err")
echo "$granted (granted native access)"
if [ -s "$err" ]; then
  echo "stderr was not empty with --enable-native-access=dev.sluice.core:"
  cat "$err"
  exit 1
fi
if [ "$feature" -ge 22 ] && [[ "$granted" != *"FFM by address: true"* ]]; then
  echo "granted native access by module name, FFM must reach memory by address"
  exit 1
fi
