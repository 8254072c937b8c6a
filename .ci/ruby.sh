#!/usr/bin/env bash
# The Ruby client (clients/ruby) in CI: installs Debian's ruby, ruby-minitest and ruby-rspec (and
# ruby-activesupport, for the test of ActiveSupport durations) when missing, runs its RSpec and
# Minitest suites and its isolation runs (`rake isolation`: the parallel examples 20 times each under
# one exec) against this checkout's sandbox (dist/, built first when missing or older than src/), and
# writes .ci-results/ruby.json, {"passed": N, "failed": M}, counting RSpec's examples and Minitest's
# tests. Exits non-zero when anything failed. Timings: docs/ruby.md, "Running its suites".
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v ruby >/dev/null || missing+=(ruby)
ruby -e 'require "minitest"' 2>/dev/null || missing+=(ruby-minitest)
command -v rspec >/dev/null || missing+=(ruby-rspec)
ruby -e 'require "active_support"' 2>/dev/null || missing+=(ruby-activesupport)
if [ ${#missing[@]} -gt 0 ]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null \
    || echo "could not install ${missing[*]}: the Ruby suites cannot run" >&2
fi

node scripts/build-if-needed.mjs || exit 1
results="$PWD/.ci-results"
mkdir -p "$results"
rm -f "$results/ruby.json" "$results/ruby-rspec.json" "$results/ruby-minitest.log" "$results/ruby-isolation.log"

cd clients/ruby
rspec --format progress --format json --out "$results/ruby-rspec.json"
rspec_status=$?
rake test 2>&1 | tee "$results/ruby-minitest.log"
minitest_status=${PIPESTATUS[0]}
rake isolation 2>&1 | tee "$results/ruby-isolation.log"
isolation_status=${PIPESTATUS[0]}

# RSpec's JSON report and each Minitest run's summary line (its last: a failure's message may quote
# another run's); a suite that left neither counts as one failure.
node -e '
  const fs = require("fs")
  const [rspecFile, resultFile, ...minitestFiles] = process.argv.slice(1)
  const read = (file) => { try { return fs.readFileSync(file, "utf8") } catch { return "" } }
  let passed = 0, failed = 0
  try {
    const { summary } = JSON.parse(read(rspecFile))
    passed += summary.example_count - summary.failure_count - summary.pending_count
    failed += summary.failure_count + summary.errors_outside_of_examples_count
  } catch { failed += 1 }
  for (const minitestFile of minitestFiles) {
    const counts = [...read(minitestFile).matchAll(/^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips$/gm)].pop()
    if (!counts) { failed += 1; continue }
    const [runs, failures, errors, skips] = counts.slice(1).map(Number)
    passed += runs - failures - errors - skips
    failed += failures + errors
  }
  fs.writeFileSync(resultFile, JSON.stringify({ passed, failed }) + "\n")
  console.log(`ruby: ${passed} passed, ${failed} failed`)
  process.exitCode = failed > 0 ? 1 : 0
' "$results/ruby-rspec.json" "$results/ruby.json" "$results/ruby-minitest.log" "$results/ruby-isolation.log"
summary_status=$?
[ $rspec_status -eq 0 ] && [ $minitest_status -eq 0 ] && [ $isolation_status -eq 0 ] && [ $summary_status -eq 0 ]
