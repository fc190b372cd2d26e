#!/usr/bin/env bash
# npm test: type-check, lint, catalog check, unit and database tests (Vitest, real PostgreSQL),
# end-to-end tests (Playwright driving Debian's Chromium against `npm start`).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s\n' "$1"; }

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    step "installing Debian's chromium for the end-to-end tests (about a minute)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "npm test needs Chromium at /usr/bin/chromium: run 'sudo apt-get install chromium' and try again" >&2
    exit 1
  fi
fi

# The Prometheus client and demo tests run Debian's Prometheus 2.42 on loopback; they fail (not skip) without it.
if [ ! -x /usr/bin/prometheus ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    step "installing Debian's prometheus for the metrics tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  else
    echo "npm test needs Prometheus at /usr/bin/prometheus: run 'sudo apt-get install --no-install-recommends prometheus' and try again" >&2
    exit 1
  fi
fi

mkdir -p test-results
step "type-check"
npx tsc --noEmit
step "lint"
npx eslint --max-warnings 0 .
step "catalog"
npx tsx scripts/catalog-check.ts
step "unit and database tests"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
step "end-to-end tests"
npx playwright test
node scripts/test-summary.mjs
