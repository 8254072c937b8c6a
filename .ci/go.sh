#!/usr/bin/env bash
# The Go helper's part of CI (.ci/run calls it): installs Debian's golang-go when `go` is missing,
# runs `go test` in clients/go against this checkout's sandbox (dist/ built first when src/
# changed), and writes the counts to .ci-results/go.json as {"passed": N, "failed": M}: each test,
# subtest and example that `go test -json` reports as passed or failed, plus one failure for a
# package that failed with no failing test (its test binary crashed), or for a run that failed with
# none at all (go 1.19 reports a build failure on stderr only). Exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .ci-results
result=.ci-results/go.json
report=.ci-results/go-test.json
broken() {
  echo "$1" >&2
  echo '{"passed": 0, "failed": 1}' >"$result"
  exit 1
}

if ! command -v go >/dev/null; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go; } >/dev/null 2>&1
fi
command -v go >/dev/null || broken "could not install golang-go: the Go tests cannot run"
node scripts/build-if-needed.mjs || broken "could not build dist/: the Go tests need the sandbox's CLI"

# Offline: the module has no dependency, so no module proxy. The tests start the sandboxes they
# need, so a sandbox that the caller's environment names is not attached to.
started=$(date +%s)
(cd clients/go && env -u WALLET_SANDBOX_BASE_URL GOPROXY=off GOFLAGS= go test -count=1 -json ./...) >"$report"
status=$?
node -e '
  const fs = require("fs")
  const [report, result, seconds, status] = process.argv.slice(1)
  let passed = 0, failed = 0
  const failing = new Set(), failedPackages = new Set()
  for (const line of fs.readFileSync(report, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue
    const event = JSON.parse(line)
    if (event.Action === "pass" && event.Test) passed += 1
    if (event.Action === "fail" && event.Test) { failed += 1; failing.add(event.Package) }
    if (event.Action === "fail" && !event.Test) failedPackages.add(event.Package)
  }
  for (const pkg of failedPackages) if (!failing.has(pkg)) failed += 1
  if (status !== "0" && failed === 0) failed = 1
  fs.writeFileSync(result, JSON.stringify({ passed, failed }) + "\n")
  console.log(`go: ${passed} passed, ${failed} failed in ${seconds} s`)
  if (failed > 0) process.exitCode = 1
' "$report" "$result" "$(( $(date +%s) - started ))" "$status" || status=1
exit $status
