#!/usr/bin/env bash
# npm test: type-check, lint, format and layering checks, catalog check, unit and database tests (Vitest, real PostgreSQL),
# end-to-end tests (Playwright driving Debian's Chromium against `npm start`).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s\n' "$1"; }

# Debian's Chromium (the end-to-end tests), Prometheus 2.42 (the metrics tests, and the demo's KMS metrics in the
# end-to-end run), Alertmanager, and the real Kubernetes clients the demo cluster's contract test drives (the official
# Python client, python3-kubernetes; kubectl below): installed here when running as root, otherwise named; the tests
# fail, not skip, without them.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/prometheus ] || missing+=(prometheus)
[ -x /usr/bin/prometheus-alertmanager ] || missing+=(prometheus-alertmanager)
/usr/bin/python3 -c 'import kubernetes' 2>/dev/null || missing+=(python3-kubernetes)
# Debian's kubectl (package kubernetes-client) is unpacked under .data/tools, not installed: /usr/bin/kubectl
# belongs to another package on some machines.
KUBECTL=.data/tools/kubernetes-client/usr/bin/kubectl
updated=""
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    step "installing Debian's ${missing[*]} for the tests (about a minute)"
    apt-get update -qq
    updated=1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "npm test needs ${missing[*]} (/usr/bin/chromium, /usr/bin/prometheus, /usr/bin/prometheus-alertmanager, python3-kubernetes): run 'sudo apt-get install --no-install-recommends ${missing[*]}' and try again" >&2
    exit 1
  fi
fi
if [ ! -x "$KUBECTL" ]; then
  step "unpacking Debian's kubectl (kubernetes-client) into .data/tools for the tests"
  if [ "$(id -u)" = "0" ] && [ -z "$updated" ]; then apt-get update -qq; fi
  unpack=$(mktemp -d)
  (cd "$unpack" && apt-get download -qq -o APT::Sandbox::User="$(id -un)" kubernetes-client >/dev/null) || { echo "npm test needs Debian's kubernetes-client package (apt-get download kubernetes-client failed)" >&2; exit 1; }
  mkdir -p .data/tools/kubernetes-client
  dpkg-deb -x "$unpack"/kubernetes-client_*.deb .data/tools/kubernetes-client
  rm -rf "$unpack"
fi
export FAULTLINE_KUBECTL="$PWD/$KUBECTL"
# npm run test:shake prepares the same tools, and runs its own tests.
[ "${1:-}" = "--tools-only" ] && exit 0

mkdir -p test-results
step "type-check"
npx tsc --noEmit
step "lint"
npx eslint --max-warnings 0 .
step "format (Prettier; npm run format fixes it)"
npx prettier --check --log-level warn .
step "layering (docs/architecture.md)"
node scripts/check-layers.mjs
step "catalog"
npx tsx scripts/catalog-check.ts
# The three test runs go on after a failure, so one run shows every failing test; the summary below names them
# (and fails) at the end, where a log's tail shows it.
rm -f test-results/vitest.json test-results/e2e.json test-results/e2e-scale.json
status=()
step "unit and database tests"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status+=("unit tests exited $?")
# The production build comes first, on its own: inside Playwright's webServer it counted against the server's
# start-up bound, and beside a CPU hog the build alone took longer than that bound (a failure no user would see).
# `npm start` then finds the build current and starts in seconds.
step "production build (for the end-to-end tests)"
if npm run build; then
  step "end-to-end tests"
  npx playwright test || status+=("end-to-end tests exited $?")
  step "end-to-end tests at 500 nodes (/health at scale)"
  npx playwright test -c e2e/health-scale.config.ts || status+=("end-to-end tests at 500 nodes exited $?")
else
  status+=("the production build failed (npm run build exited $?), so the end-to-end tests did not run")
fi
node scripts/test-summary.mjs "${status[@]}"
