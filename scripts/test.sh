#!/usr/bin/env bash
# npm test: type-check, lint, catalog check, unit and database tests (Vitest, real PostgreSQL),
# end-to-end tests (Playwright driving Debian's Chromium against `npm start`).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s\n' "$1"; }

# Debian's Chromium (the end-to-end tests) and Prometheus 2.42 (the metrics tests, and the demo's KMS metrics
# in the end-to-end run): installed here when running as root, otherwise named; the tests fail, not skip, without them.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/prometheus ] || missing+=(prometheus)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    step "installing Debian's ${missing[*]} for the tests (about a minute)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "npm test needs ${missing[*]} (/usr/bin/chromium, /usr/bin/prometheus): run 'sudo apt-get install --no-install-recommends ${missing[*]}' and try again" >&2
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
