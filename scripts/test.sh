#!/usr/bin/env bash
# The one test command (README): typecheck, lint, unit tests, server tests on PGlite and on the
# PostgreSQL at 127.0.0.1:5432 (a fresh database per run), a production build, browser tests.
# Each stage prints how long it took (and the machine's load when it ended), so a slow run says where.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
stage() {
  local name=$1; shift
  local at=$SECONDS
  echo "== $name"
  "$@"
  echo "   ($name: $((SECONDS - at)) s; load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'))"
}

stage "typecheck" npx tsc -p tsconfig.json --noEmit
stage "lint" npx eslint . --max-warnings=0
stage "unit (machines, pure helpers) and path coverage per machine" node scripts/path-coverage.mjs
stage "views (Testing Library in jsdom, against machine states)" npx vitest run --project views
stage "server on embedded PGlite" npx vitest run --project server
stage "server on PostgreSQL" node scripts/with-fresh-postgres.mjs npx vitest run --project server
stage "build" env NODE_ENV=production npx vite build
stage "browser (Chromium, two workers)" bash -c 'node scripts/ensure-chromium.mjs && npx vitest run --project e2e --maxWorkers=2'
echo "== all stages passed in $((SECONDS - started)) s"
