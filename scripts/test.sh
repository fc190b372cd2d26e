#!/usr/bin/env bash
# npm test: type-check, lint, format and layering checks, catalog check, unit and database tests (Vitest, real PostgreSQL),
# end-to-end tests (Playwright driving Debian's Chromium against `npm start`).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s\n' "$1"; }

# Debian's Chromium (the end-to-end tests), Prometheus 2.42 (the metrics tests, and the demo's KMS metrics in the
# end-to-end run), Alertmanager, and the real Kubernetes clients the demo cluster's contract test drives (the official
# Python client, python3-kubernetes; kubectl below), systemd-journal-gatewayd and -remote (the journal tests): installed here when running as root, otherwise named; the tests
# fail, not skip, without them.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/prometheus ] || missing+=(prometheus)
[ -x /usr/bin/prometheus-alertmanager ] || missing+=(prometheus-alertmanager)
/usr/bin/python3 -c 'import kubernetes' 2>/dev/null || missing+=(python3-kubernetes)
[ -x /lib/systemd/systemd-journal-gatewayd ] && [ -x /lib/systemd/systemd-journal-remote ] || missing+=(systemd-journal-remote)
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
    echo "npm test needs ${missing[*]} (/usr/bin/chromium, /usr/bin/prometheus, /usr/bin/prometheus-alertmanager, python3-kubernetes, systemd-journal-remote for the journal tests): run 'sudo apt-get install --no-install-recommends ${missing[*]}' and try again" >&2
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

mkdir -p test-results .data/test-logs
began=$SECONDS
# The checks that read the sources (type-check, lint, format, layering, catalog) and the production build for the
# end-to-end tests run side by side: each is one busy process, so on two cores they finish in about the time of the
# longest rather than of their sum. Each writes its own log, shown below in this order once all have ended.
# The build skips Next's own type-check (FAULTLINE_TYPECHECKED=1): `tsc --noEmit` here checks the same sources.
checks=(type-check lint format layering catalog build)
declare -A command=(
  [type-check]="npx tsc --noEmit"
  [lint]="npx eslint --max-warnings 0 ."
  [format]="npx prettier --check --log-level warn ."
  [layering]="node scripts/check-layers.mjs"
  [catalog]="npx tsx scripts/catalog-check.ts"
  [build]="env FAULTLINE_TYPECHECKED=1 npm run build"
)
declare -A pid
for check in "${checks[@]}"; do
  (
    start=$SECONDS
    set +e
    ${command[$check]} > ".data/test-logs/$check.log" 2>&1
    rc=$?
    echo "$rc $((SECONDS - start))" > ".data/test-logs/$check.rc"
    exit $rc
  ) &
  pid[$check]=$!
done
failed_checks=()
for check in "${checks[@]}"; do
  wait "${pid[$check]}" || true
  read -r rc secs < ".data/test-logs/$check.rc"
  step "$check (${command[$check]}): exit $rc after ${secs} s"
  cat ".data/test-logs/$check.log"
  [ "$rc" = 0 ] || failed_checks+=("$check")
done
if [ ${#failed_checks[@]} -gt 0 ]; then
  printf '\nnpm test stopped: %s failed (npm run format fixes formatting); no test ran\n' "${failed_checks[*]}" >&2
  exit 1
fi
printf '\n(the checks and the build took %s s)\n' "$((SECONDS - began))"
# The test runs go on after a failure, so one run shows every failing test; the summary below names them
# (and fails) at the end, where a log's tail shows it.
rm -f test-results/vitest.json test-results/e2e.json test-results/e2e-scale.json test-results/e2e-fleet.json
status=()
timed() { local start=$SECONDS; "$@"; local rc=$?; printf '(%s s)\n' "$((SECONDS - start))"; return $rc; }
step "unit and database tests"
timed npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status+=("unit tests exited $?")
# `npm start` finds the build above current and starts in seconds: inside Playwright's webServer a build counted
# against the server's start-up bound, which a build beside a CPU hog exceeded (a failure no user would see).
step "end-to-end tests"
timed npx playwright test || status+=("end-to-end tests exited $?")
step "end-to-end tests at 500 nodes (/health at scale)"
timed npx playwright test -c e2e/health-scale.config.ts || status+=("end-to-end tests at 500 nodes exited $?")
step "end-to-end tests of a fleet (six simulated clusters through a clusters file)"
timed npx playwright test -c e2e/fleet.config.ts || status+=("end-to-end tests of a fleet exited $?")
printf '\n(npm test took %s s)\n' "$((SECONDS - began))"
node scripts/test-summary.mjs "${status[@]}"
