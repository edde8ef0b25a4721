#!/usr/bin/env bash
# Compiles and runs a modular application that requires dev.sluice.core from the module path, on the given JDK.
set -euo pipefail
cd "$(dirname "$0")/.."
java_home=${1:?usage: modular-check.sh JAVA_HOME}
jar=$(ls core/target/sluice-core-*.jar | grep -v -e sources -e javadoc | head -1)
out=$(mktemp -d)
"$java_home/bin/javac" --module-path "$jar" -d "$out" .ci/modular-app/module-info.java .ci/modular-app/example/Main.java
"$java_home/bin/java" --module-path "$jar:$out" -m sluice.example/example.Main
