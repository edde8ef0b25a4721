#!/usr/bin/env bash
# Runs a command on a machine that JCStress sees as N CPUs, for tests with more actors than the machine has CPUs.
#
#   virtual-cpus.sh N command [args]      exit 3 (and runs nothing) if this machine cannot do it
#   virtual-cpus.sh --check N             exit 0 if it can
#
# JCStress 0.16 gives each actor its own CPU: it counts CPUs with Runtime.availableProcessors() and lays them out
# from /sys/devices/system/{cpu,node}. The command runs in a private mount namespace (unshare -m: needs root or
# CAP_SYS_ADMIN) where those two directories describe N one-thread cores. The caller starts Java with
# -XX:ActiveProcessorCount=N (JCStress hands the flag on to its forks) and JCStress with `-af NONE`: the extra
# CPUs do not exist, so no thread may be pinned to one. The actors then share the real CPUs (the OS time-slices them): every outcome seen
# is still one the code really produced, but fewer interleavings are tried per second than with a CPU per actor.
set -euo pipefail

check=0
[[ "${1:-}" != --check ]] || { check=1; shift; }
n="${1:?usage: virtual-cpus.sh [--check] N command [args]}"
shift
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "virtual-cpus.sh: N must be a positive integer, got '$n'" >&2; exit 2; }
[[ $check -eq 1 || $# -gt 0 ]] || { echo "virtual-cpus.sh: no command" >&2; exit 2; }

if ! command -v unshare > /dev/null || ! unshare -m true 2> /dev/null; then
  echo "virtual-cpus.sh: cannot create a mount namespace here (unshare -m needs root or CAP_SYS_ADMIN)" >&2
  exit 3
fi
[[ $check -eq 0 ]] || exit 0

fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT
last=$((n - 1))
for ((i = 0; i < n; i++)); do
  d="$fake/cpu/cpu$i/topology"
  mkdir -p "$d"
  echo "$i" > "$d/core_id"
  echo 0 > "$d/physical_package_id"
  echo "0-$last" > "$d/package_cpus_list"
  echo "$i" > "$d/core_cpus_list"
  echo "$i" > "$d/thread_siblings_list"
done
for f in online possible present; do echo "0-$last" > "$fake/cpu/$f"; done
mkdir -p "$fake/node/node0"
echo "0-$last" > "$fake/node/node0/cpulist"
echo 0 > "$fake/node/online"

# The bind mounts exist only inside this namespace and vanish with it.
unshare -m bash -c 'mount --bind "$1/cpu" /sys/devices/system/cpu \
  && mount --bind "$1/node" /sys/devices/system/node && shift && exec "$@"' _ "$fake" "$@"
