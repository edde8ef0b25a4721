#!/usr/bin/env bash
# Runs the Sluice JCStress suite and judges the result. JCStress 0.16 exits 1 when a test fails, but a test that
# never ran (too few CPUs for its actors) or a crashed fork is not a failure to it, so the log and report are read.
#
#   run-jcstress.sh ci        every positive test once, bounded (sanity preset): for CI
#   run-jcstress.sh quick     every positive test, JCStress "quick" preset
#   run-jcstress.sh full      every positive test, JCStress "default" preset (or stronger: MODE=tough)
#   run-jcstress.sh negative  the negative controls (module negative-controls, jar jcstress-negative.jar): passes
#                             only if EVERY one of them reports a FORBIDDEN outcome
# TESTS=regex narrows the selection to the tests whose names also match it; extra arguments go to JCStress
# (e.g. -v). Needs the jars: build them with
#   mvn -B -q -pl jcstress-tests,jcstress-tests/negative-controls -am package -DskipTests
# Positive modes fail (exit 1) on any FORBIDDEN outcome, error, or test that did not run.
# JCStress gives each actor its own CPU. Tests with more actors than this machine has CPUs (ThreeActors,
# FourActors) run in a second pass on virtual CPUs (virtual-cpus.sh: the actors share the real CPUs); where that is
# impossible (no root for unshare -m) or VIRTUAL_CPUS=0, they are listed as skipped and do not fail the run.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
what="${1:?usage: run-jcstress.sh ci|quick|full|negative [jcstress args]}"
shift
jar="$here/target/jcstress.jar"
[[ "$what" != negative ]] || jar="$here/negative-controls/target/jcstress-negative.jar"
[[ -f "$jar" ]] || { echo "missing $jar: build it first (mvn -B -q -pl jcstress-tests,jcstress-tests/negative-controls -am package -DskipTests)" >&2; exit 2; }

positive='^dev\.sluice\.'
negative='^dev\.sluice\.negative\.'
cpus="$(nproc)"
# virtual_bound: what all modes but full leave out on virtual CPUs, where every configuration runs several times
# slower: per-actor (split) compilation, which multiplies the configurations by about 3 per actor.
virtual_bound=()
case "$what" in
  ci)       filter="$positive"; preset=(-m sanity); virtual_bound=(-sc false) ;;
  quick)    filter="$positive"; preset=(-m quick); virtual_bound=(-sc false) ;;
  full)     filter="$positive"; preset=(-m "${MODE:-default}") ;;
  negative) filter="$negative"; preset=(-m quick -iters 1 -time 200 -jvmArgs "-XX:+UseParallelGC"); virtual_bound=(-sc false) ;;
  *) echo "unknown mode $what" >&2; exit 2 ;;
esac

[[ -z "${TESTS:-}" ]] || filter="$filter.*(${TESTS})"
out="$here/target/jcstress-$what"
rm -rf "$out"
mkdir -p "$out"
# JCStress writes its result blob into the working directory: keep it under target/.
cd "$out"

java -jar "$jar" -l -t "$filter" "$@" | grep -E '^\s*dev\.sluice\.' | sed 's/^ *//' | sort -u > "$out/selected.txt"
selected=$(wc -l < "$out/selected.txt")
[[ "$selected" -gt 0 ]] || { echo "no test matches $filter" >&2; exit 1; }

# The actors a test needs, from its name (the suite's naming rule: more than two actors are named in the class).
actors_of() { case "$1" in *FourActors*) echo 4 ;; *ThreeActors*) echo 3 ;; *) echo 2 ;; esac; }
need=2; fits=0
while read -r t; do
  a=$(actors_of "$t"); [[ $a -le $need ]] || need=$a; [[ $a -gt $cpus ]] || fits=$((fits + 1))
done < "$out/selected.txt"
virtual=0
if [[ $need -gt $cpus && "${VIRTUAL_CPUS:-1}" != 0 ]] && bash "$here/virtual-cpus.sh" --check "$need"; then
  virtual=$need
fi

# run_pass NAME CMD...: one JCStress run, log in $out/NAME.log, report in $out/NAME/.
rcs=()
logs=()
run_pass() {
  local name="$1"; shift
  local started rc
  started=$(date +%s)
  set +e
  "$@" "${preset[@]}" -r "$out/$name" "${extra[@]}" > "$out/$name.log" 2>&1
  rc=$?
  set -e
  echo "jcstress $what, $name pass: exit code $rc, $(( $(date +%s) - started ))s, log $out/$name.log, report $out/$name/index.html"
  rcs+=("$rc")
  logs+=("$out/$name.log")
}
extra=("$@")
# Pass 1, a CPU per actor: every test that fits this machine (JCStress leaves out the others by itself).
[[ $fits -eq 0 ]] || run_pass native java -jar "$jar" -c "$cpus" -t "$filter"
if [[ $virtual -gt 0 ]]; then
  # Pass 2: the tests with more actors than CPUs, on $virtual virtual CPUs, unpinned (-af NONE).
  many=$(while read -r t; do [[ $(actors_of "$t") -le $cpus ]] || echo "${t//./\\.}"; done < "$out/selected.txt" \
    | paste -sd '|')
  many="^($many)\$"
  run_pass virtual bash "$here/virtual-cpus.sh" "$virtual" java "-XX:ActiveProcessorCount=$virtual" -jar "$jar" \
    -c "$virtual" -af NONE -jvmArgsPrepend "-XX:ActiveProcessorCount=$virtual" "${virtual_bound[@]}" -t "$many"
fi

# Tests that produced a report page ran at least once.
ran=0; missing=(); skipped=()
while read -r t; do
  if [[ -f "$out/native/$t.html" || -f "$out/virtual/$t.html" ]]; then
    ran=$((ran + 1))
  elif [[ $(actors_of "$t") -gt $cpus && $virtual -eq 0 ]]; then
    skipped+=("$t")
  else
    missing+=("$t")
  fi
done < "$out/selected.txt"
if [[ ${#logs[@]} -eq 0 ]]; then
  printf '  SKIPPED (needs more CPUs, and virtual CPUs are not available here): %s\n' "${skipped[@]}"
  echo "JCSTRESS $what: nothing could run here (all ${#skipped[@]} selected tests need more CPUs)"
  exit 0
fi
failed_tests=$(cat "${logs[@]}" | grep -E '\[FAILED\]' | sed -E 's/.*\[FAILED\] *//' | sort -u || true)
error_tests=$(cat "${logs[@]}" | grep -E '\[(ERROR|CRASH)\]' | sed -E 's/.*\] *//' | sort -u || true)
summaries=()
for l in "${logs[@]}"; do summaries+=("$(grep -E '^\(Results: ' "$l" | tail -1 || true)"); done
echo "  ran: $ran (on virtual CPUs: $(ls "$out/virtual" 2> /dev/null | grep -c '^dev\.' || true)), skipped (need more CPUs than $cpus): ${#skipped[@]}, missing: ${#missing[@]}"
for s in "${summaries[@]}"; do echo "  $s"; done
for t in "${skipped[@]}"; do echo "  SKIPPED (needs more CPUs, and virtual CPUs are not available here): $t"; done

clean_errors() {  # 0 if no pass reported a soft or hard error
  local s
  for s in "${summaries[@]}"; do [[ "$s" =~ \ 0\ soft\ errs,\ 0\ hard\ errs ]] || return 1; done
}

if [[ "$what" == negative ]]; then
  status=0
  while read -r t; do
    if [[ " ${skipped[*]} " == *" $t "* ]]; then
      continue
    elif grep -qxF "$t" <<< "$failed_tests"; then
      echo "  caught: $t"
    else
      echo "  NOT CAUGHT (no FORBIDDEN outcome reported): $t"; status=1
    fi
  done < "$out/selected.txt"
  # JCStress exits 1 here because the controls fail; errors (crashes, soft or hard) still fail the run.
  [[ -z "$error_tests" ]] && clean_errors \
    || { echo "  JCStress errors: ${summaries[*]}"; sed 's/^/    /' <<< "$error_tests"; status=1; }
  [[ ${#missing[@]} -eq 0 ]] || { echo "  did not run:"; printf '    %s\n' "${missing[@]}"; status=1; }
  [[ $status -eq 0 ]] && echo "NEGATIVE CONTROLS: all $ran that ran caught" || echo "NEGATIVE CONTROLS: FAILED"
  exit $status
fi

status=0
for rc in "${rcs[@]}"; do [[ $rc -eq 0 ]] || { echo "  JCStress exited with $rc"; status=1; }; done
[[ -z "$failed_tests" ]] || { echo "  FORBIDDEN outcomes in:"; sed 's/^/    /' <<< "$failed_tests"; status=1; }
[[ -z "$error_tests" ]] || { echo "  errors in:"; sed 's/^/    /' <<< "$error_tests"; status=1; }
[[ ${#missing[@]} -eq 0 ]] || { echo "  did not run:"; printf '    %s\n' "${missing[@]}"; status=1; }
for s in "${summaries[@]}"; do
  if [[ "$s" =~ ([0-9]+)\ planned\;\ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ soft\ errs,\ ([0-9]+)\ hard ]]; then
    [[ "${BASH_REMATCH[1]}" == "${BASH_REMATCH[2]}" && "${BASH_REMATCH[3]}${BASH_REMATCH[4]}${BASH_REMATCH[5]}" == 000 ]] \
      || { echo "  not every planned run passed: $s"; status=1; }
  else
    echo "  no results summary in a log"; status=1
  fi
done
for l in "${logs[@]}"; do
  grep -q 'Failed tests: No matches.' "$l" && grep -q 'Error tests: No matches.' "$l" \
    || { echo "  JCStress lists failed or error tests in $l"; status=1; }
done
[[ $status -eq 0 ]] && echo "JCSTRESS $what: PASSED ($ran tests)" || echo "JCSTRESS $what: FAILED"
exit $status
