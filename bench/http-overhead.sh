#!/usr/bin/env bash
# Overhead of Sluice in an HTTP server, measured with wrk on loopback: a minimal Netty server and a minimal Jetty
# servlet, each without and with Sluice (the local engine, a limit never reached), in alternating rounds, one
# server at a time. Prints requests/s and latency percentiles side by side. Needs wrk (apt-get install -y wrk).
# Environment: SERVERS (default "netty jetty"), DURATION (10s), THREADS (1), CONNECTIONS (16), ROUNDS (2),
# WARMUP (20s), and SERVER_CPUS / CLIENT_CPUS (default 1 and 0 on a machine with two or more cores; empty to not
# pin): the server and wrk each get their own core through taskset, so that the two do not take turns on one core,
# which varies a round's result far more than the handler costs. The warm-up is long because the JIT compiles on
# the server's one core: a few seconds leave the longer path (a filter, more response fields) partly interpreted and
# measure the compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
THREADS=${THREADS:-1}
CONNECTIONS=${CONNECTIONS:-16}
ROUNDS=${ROUNDS:-2}
WARMUP=${WARMUP:-20s}
SERVERS=${SERVERS:-netty jetty}
command -v wrk >/dev/null || { echo "wrk not found: apt-get install -y wrk" >&2; exit 1; }
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
    SERVER_CPUS=${SERVER_CPUS-1}
    CLIENT_CPUS=${CLIENT_CPUS-0}
else
    SERVER_CPUS=${SERVER_CPUS-}
    CLIENT_CPUS=${CLIENT_CPUS-}
fi
server_pin=(); client_pin=()
[ -n "$SERVER_CPUS" ] && server_pin=(taskset -c "$SERVER_CPUS")
[ -n "$CLIENT_CPUS" ] && client_pin=(taskset -c "$CLIENT_CPUS")

# In the reactor, so the class paths name this tree's module classes, not installed artifacts.
mvn -B -q -pl netty,servlet -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/bench.cp
netty_cp="netty/target/classes:netty/target/test-classes:$(cat netty/target/bench.cp)"
servlet_cp="servlet/target/classes:servlet/target/test-classes:$(cat servlet/target/bench.cp)"
work=$(mktemp -d)
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# wrk's latency value (e.g. 812.00us, 1.20ms, 2.00s) in microseconds.
to_us() {
    awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) m = 1; else if (v ~ /ms$/) m = 1000; else if (v ~ /s$/) m = 1000000;
        else m = 1; printf "%.1f", n * m }'
}

# run LABEL CLASSPATH MAIN MODE: starts the server, warms it up, measures, stops it; appends a row to rows.
run() {
    local label=$1 cp=$2 main=$3 mode=$4 port_file="$work/port" out="$work/wrk.txt"
    rm -f "$port_file"
    "${server_pin[@]}" java -Xms256m -Xmx256m -XX:+UseParallelGC -cp "$cp" "$main" "$mode" "$port_file" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 200); do [ -s "$port_file" ] && break; sleep 0.1; done
    [ -s "$port_file" ] || { cat "$work/server.log" >&2; exit 1; }
    local url="http://127.0.0.1:$(cat "$port_file")/hello"
    "${client_pin[@]}" wrk -d "$WARMUP" -t "$THREADS" -c "$CONNECTIONS" "$url" >/dev/null
    "${client_pin[@]}" wrk -d "$DURATION" -t "$THREADS" -c "$CONNECTIONS" --latency "$url" >"$out"
    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
    local rps p50 p90 p99 errors
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
    p50=$(to_us "$(awk '$1 == "50%" { print $2 }' "$out")")
    p90=$(to_us "$(awk '$1 == "90%" { print $2 }' "$out")")
    p99=$(to_us "$(awk '$1 == "99%" { print $2 }' "$out")")
    errors=$(awk '/Non-2xx|Socket errors/ { print }' "$out" | tr '\n' ' ')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$rps" "$p50" "$p90" "$p99" "${errors:-none}" >>"$work/rows"
}

: >"$work/rows"
for round in $(seq 1 "$ROUNDS"); do
    for server in $SERVERS; do
        case $server in
            netty) cp=$netty_cp main=dev.sluice.netty.bench.OverheadServer ;;
            jetty) cp=$servlet_cp main=dev.sluice.servlet.bench.OverheadServer ;;
            *) echo "unknown server '$server' in SERVERS: netty or jetty" >&2; exit 1 ;;
        esac
        run "$server without" "$cp" "$main" without
        run "$server with"    "$cp" "$main" with
    done
done

echo "wrk -d $DURATION -t $THREADS -c $CONNECTIONS --latency, loopback, $ROUNDS rounds, $(nproc) cores," \
    "server on CPUs ${SERVER_CPUS:-any}, wrk on CPUs ${CLIENT_CPUS:-any}"
printf '%-14s %12s %10s %10s %10s  %s\n' server "requests/s" "p50 us" "p90 us" "p99 us" errors
awk -F'\t' '{ printf "%-14s %12s %10s %10s %10s  %s\n", $1, $2, $3, $4, $5, $6 }' "$work/rows"
echo
echo "mean and median over rounds: with Sluice vs without"
awk -F'\t' '{ split($1, k, " "); print k[1] "\t" k[2] "\t" $2 "\t" $5 }' "$work/rows" | sort -k1,1 -k2,2 -k3,3g |
    awk -F'\t' '{ key = $1 " " $2; v[key, ++n[key]] = $3; sum[key] += $3; p99[key] += $4 }
    function median(key,   m) { m = n[key]; return m % 2 ? v[key, (m + 1) / 2] : (v[key, m / 2] + v[key, m / 2 + 1]) / 2 }
    END { split("netty jetty", ss, " ");
        for (i = 1; i <= 2; i++) { s = ss[i]; a = s " without"; b = s " with";
            if (n[a] == 0 || n[b] == 0) continue;
            printf "%-6s requests/s mean %+.1f%%  median %+.1f%%   p99 mean %+.1f us\n", s,
                (sum[b] / n[b] - sum[a] / n[a]) / (sum[a] / n[a]) * 100, (median(b) - median(a)) / median(a) * 100,
                p99[b] / n[b] - p99[a] / n[a] } }'
