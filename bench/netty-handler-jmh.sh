#!/usr/bin/env bash
# The Netty handler's JMH benchmark (netty/src/test/.../bench/HandlerBenchmark) with -prof gc: the handler beside the
# same EmbeddedChannel without it. Short by design; extra arguments go to JMH.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -pl netty -am test-compile
mvn -B -q -pl netty dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=netty/target/bench.cp
# The reactor's classes first, so the benchmark runs this tree's core and not an installed one.
cp="core/target/classes:netty/target/classes:netty/target/test-classes:$(cat netty/target/bench.cp)"
exec java -cp "$cp" org.openjdk.jmh.Main 'dev.sluice.netty.bench.HandlerBenchmark' -f 1 -wi 2 -w 1s -i 3 -r 1s \
    -prof gc "$@"
