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
# Positive modes fail (exit 1) on any FORBIDDEN outcome, error, or test that did not run; tests with more actors
# than this machine has CPUs cannot run (JCStress gives each actor a CPU) and are listed as skipped.
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
cpuargs=(-c "$cpus")
case "$what" in
  ci)       filter="$positive"; preset=(-m sanity) ;;
  quick)    filter="$positive"; preset=(-m quick) ;;
  full)     filter="$positive"; preset=(-m "${MODE:-default}") ;;
  negative) filter="$negative"; preset=(-m quick -iters 1 -time 200 -jvmArgs "-XX:+UseParallelGC") ;;
  *) echo "unknown mode $what" >&2; exit 2 ;;
esac

[[ -z "${TESTS:-}" ]] || filter="$filter.*(${TESTS})"
out="$here/target/jcstress-$what"
rm -rf "$out"
mkdir -p "$out"
log="$out/console.log"
# JCStress writes its result blob into the working directory: keep it under target/.
cd "$out"

java -jar "$jar" -l -t "$filter" "$@" | grep -E '^\s*dev\.sluice\.' | sed 's/^ *//' | sort -u > "$out/selected.txt"
selected=$(wc -l < "$out/selected.txt")
[[ "$selected" -gt 0 ]] || { echo "no test matches $filter" >&2; exit 1; }

start=$(date +%s)
set +e
java -jar "$jar" "${preset[@]}" "${cpuargs[@]}" -t "$filter" -r "$out/report" "$@" > "$log" 2>&1
rc=$?
set -e
elapsed=$(( $(date +%s) - start ))
echo "jcstress $what: $selected tests selected, exit code $rc, ${elapsed}s, log $log, report $out/report/index.html"

# Tests that produced a report page ran at least once.
ran=0; missing=(); skipped=()
while read -r t; do
  if [[ -f "$out/report/$t.html" ]]; then
    ran=$((ran + 1))
  elif [[ "$t" == *FourActors* && "$cpus" -lt 4 ]] || [[ "$t" == *ThreeActors* && "$cpus" -lt 3 ]]; then
    skipped+=("$t")
  else
    missing+=("$t")
  fi
done < "$out/selected.txt"
failed_tests=$(grep -E '\[FAILED\]' "$log" | sed -E 's/.*\[FAILED\] *//' | sort -u || true)
error_tests=$(grep -E '\[(ERROR|CRASH)\]' "$log" | sed -E 's/.*\] *//' | sort -u || true)
summary=$(grep -E '^\(Results: ' "$log" | tail -1 || true)
echo "  ran: $ran, skipped (need more CPUs than $cpus): ${#skipped[@]}, missing: ${#missing[@]}; $summary"
for t in "${skipped[@]}"; do echo "  SKIPPED (needs more CPUs): $t"; done

if [[ "$what" == negative ]]; then
  status=0
  while read -r t; do
    if grep -qxF "$t" <<< "$failed_tests"; then
      echo "  caught: $t"
    else
      echo "  NOT CAUGHT (no FORBIDDEN outcome reported): $t"; status=1
    fi
  done < "$out/selected.txt"
  # JCStress exits 1 here because the controls fail; errors (crashes, soft or hard) still fail the run.
  [[ -z "$error_tests" && "$summary" =~ \ 0\ soft\ errs,\ 0\ hard\ errs ]] \
    || { echo "  JCStress errors: $summary"; sed 's/^/    /' <<< "$error_tests"; status=1; }
  [[ ${#missing[@]} -eq 0 ]] || { echo "  did not run:"; printf '    %s\n' "${missing[@]}"; status=1; }
  [[ $status -eq 0 ]] && echo "NEGATIVE CONTROLS: all $selected caught" || echo "NEGATIVE CONTROLS: FAILED"
  exit $status
fi

status=0
[[ $rc -eq 0 ]] || { echo "  JCStress exited with $rc"; status=1; }
[[ -z "$failed_tests" ]] || { echo "  FORBIDDEN outcomes in:"; sed 's/^/    /' <<< "$failed_tests"; status=1; }
[[ -z "$error_tests" ]] || { echo "  errors in:"; sed 's/^/    /' <<< "$error_tests"; status=1; }
[[ ${#missing[@]} -eq 0 ]] || { echo "  did not run:"; printf '    %s\n' "${missing[@]}"; status=1; }
if [[ "$summary" =~ ([0-9]+)\ planned\;\ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ soft\ errs,\ ([0-9]+)\ hard ]]; then
  [[ "${BASH_REMATCH[1]}" == "${BASH_REMATCH[2]}" && "${BASH_REMATCH[3]}${BASH_REMATCH[4]}${BASH_REMATCH[5]}" == 000 ]] \
    || { echo "  not every planned run passed: $summary"; status=1; }
else
  echo "  no results summary in the log"; status=1
fi
grep -q 'Failed tests: No matches.' "$log" && grep -q 'Error tests: No matches.' "$log" \
  || { echo "  JCStress lists failed or error tests"; status=1; }
[[ $status -eq 0 ]] && echo "JCSTRESS $what: PASSED ($ran tests)" || echo "JCSTRESS $what: FAILED"
exit $status
