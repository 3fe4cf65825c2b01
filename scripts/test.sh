#!/usr/bin/env bash
# The one test command (README): typecheck, lint, unit tests, server tests on PGlite and on the
# PostgreSQL at 127.0.0.1:5432 (a fresh database per run), a production build, browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== typecheck"; npx tsc -p tsconfig.json --noEmit
echo "== lint"; npx eslint . --max-warnings=0
echo "== unit (machines, pure helpers) and path coverage per machine"; node scripts/path-coverage.mjs
echo "== views (Testing Library in jsdom, against machine states)"; npx vitest run --project views
echo "== server on embedded PGlite"; npx vitest run --project server
echo "== server on PostgreSQL"; node scripts/with-fresh-postgres.mjs npx vitest run --project server
echo "== build"; NODE_ENV=production npx vite build
echo "== browser (Chromium)"; node scripts/ensure-chromium.mjs; npx vitest run --project e2e
