#!/usr/bin/env bash
# The Python plugin's suite (clients/python, docs/python.md) on CI: Debian's pytest, pytest-xdist and
# pytest-asyncio for /usr/bin/python3 (installed when missing, as .ci/run installs Chromium), the
# plugin installed as the docs say into a virtual environment that sees them, then the suite against
# this checkout's CLI, plainly and with -n 4 (the twenty exec runs of the shared-sandbox example,
# marked `repeated`, in the plain run only: each already runs four workers). Writes
# .ci-results/python.json ({"passed": N, "failed": M}; a skipped test counts as failed, since every
# test can run here) and exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

python=/usr/bin/python3
missing=()
"$python" -c 'import pytest' 2>/dev/null || missing+=(python3-pytest)
"$python" -c 'import xdist' 2>/dev/null || missing+=(python3-pytest-xdist)
# The async example of docs/python.md is a pytest-asyncio test.
"$python" -c 'import pytest_asyncio' 2>/dev/null || missing+=(python3-pytest-asyncio)
"$python" -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
# The Ed25519 example of docs/signing.md signs with it.
"$python" -c 'import cryptography' 2>/dev/null || missing+=(python3-cryptography)
# For pip's --no-build-isolation, the way in when no package index answers.
"$python" -c 'import setuptools, wheel' 2>/dev/null || missing+=(python3-setuptools python3-wheel)
if [ ${#missing[@]} -gt 0 ]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null \
    || echo "could not install ${missing[*]}: the Python suite will fail" >&2
fi

mkdir -p .ci-results
rm -f .ci-results/python.json .ci-results/python-*.xml
# The CLI runs from dist/.
node scripts/build-if-needed.mjs || exit 1

# A virtual environment of its own: a developer's clients/python/.venv stays as it is.
venv=$(mktemp -d "${TMPDIR:-/tmp}/wallet-sandbox-python-ci.XXXXXX") || exit 1
trap 'rm -rf "$venv"' EXIT
"$python" -m venv --system-site-packages "$venv" || exit 1
if ! "$venv/bin/pip" install --quiet ./clients/python; then
  echo "pip install ./clients/python failed; again with the setuptools installed (--no-build-isolation)" >&2
  "$venv/bin/pip" install --quiet --no-build-isolation ./clients/python || exit 1
fi

# The suite starts its own sandboxes: it must not attach to one of the caller's.
unset "${!WALLET_SANDBOX_@}"
status=0
"$venv/bin/python" -m pytest clients/python -p no:cacheprovider --junitxml=.ci-results/python-plain.xml || status=1
"$venv/bin/python" -m pytest clients/python -p no:cacheprovider -n 4 -m "not repeated" --junitxml=.ci-results/python-n4.xml || status=1

"$python" - .ci-results/python-plain.xml .ci-results/python-n4.xml <<'EOF' || status=1
import json, sys
from xml.etree import ElementTree

passed = failed = 0
for report in sys.argv[1:]:
    try:
        suites = ElementTree.parse(report).getroot().iter("testsuite")
    except (OSError, ElementTree.ParseError):
        failed += 1  # The run broke before it wrote its report.
        continue
    for suite in suites:
        total = int(suite.get("tests", 0))
        bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0)) + int(suite.get("skipped", 0))
        passed += total - bad
        failed += bad
with open(".ci-results/python.json", "w") as out:
    json.dump({"passed": passed, "failed": failed}, out)
print(f"python: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
EOF
exit $status
