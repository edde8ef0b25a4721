#!/usr/bin/env bash
# The Netty handler's JMH benchmark (netty/src/test/.../bench/HandlerBenchmark) with -prof gc: the handler beside the
# same EmbeddedChannel without it. Short by design; extra arguments go to JMH.
set -euo pipefail
cd "$(dirname "$0")/.."
# In the reactor, so the class path names this tree's core/target/classes, not an installed sluice-core.
mvn -B -q -pl netty -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
cp="netty/target/classes:netty/target/test-classes:$(cat netty/target/bench.cp)"
exec java ${JAVA_OPTS:-} -cp "$cp" org.openjdk.jmh.Main 'dev.sluice.netty.bench.HandlerBenchmark' -f 1 -wi 2 -w 1s -i 3 -r 1s \
    -prof gc "$@"
