#!/usr/bin/env bash
# The one test command (README): typecheck, lint, unit tests, server tests on PGlite and on the
# PostgreSQL at 127.0.0.1:5432 (a fresh database per run), a production build, browser tests.
# Each stage prints how long it took (and the machine's load when it ended), so a slow run says where.
#
# Issue 39 (a fresh clone's run within 20 minutes on a loaded 2-core machine): stages whose work is
# mostly single-threaded or mostly waiting run side by side (`together`): typecheck beside lint (tsc
# and eslint each use one core); then three chains at once: the views and then the server tests on
# PGlite (both CPU-bound), the server tests on PostgreSQL (mostly waiting: 175 s of CPU in a 1,207 s
# run), and the production build and then the browser tests on two workers (mostly waiting on pages,
# timers and polls: the accessibility files used 70 s of CPU in 277 s, load 17-21). On a machine
# others load too, more of our work runnable at once also gets more of its cores. (Three browser
# workers at load 20-27 met hook timeouts on first starts: not measured cleanly, kept at two.) Each
# side's output is kept in its own file and printed whole when it ends, so runs never interleave.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'; }
# CPU seconds (user + system) used by a shell's finished children, read from the file `times` wrote:
# beside the wall time, what a stage cost the machine (on 2 cores, a stage of W s that used C s kept
# C/W cores busy: whether running it beside another could help). Servers it talked to (PostgreSQL) not included.
cpu_of() { awk 'NR==2 { split($1,a,"m"); split($2,b,"m"); printf "%.0f", a[1]*60+a[2]+b[1]*60+b[2] }' "$1"; }
CPU_FILE=$(mktemp "${TMPDIR:-/tmp}/cms-test-cpu-XXXXXX")
trap 'rm -f "$CPU_FILE"' EXIT
# Sets CPU (not through $(…): a subshell's `times` would see none of this shell's children).
cpu_now() { times >"$CPU_FILE"; CPU=$(cpu_of "$CPU_FILE"); }
stage() {
  local name=$1; shift
  local at=$SECONDS cpu_at
  cpu_now; cpu_at=$CPU
  echo "== $name"
  "$@"
  cpu_now
  echo "   ($name: $((SECONDS - at)) s; cpu $((CPU - cpu_at)) s; load $(load))"
}

# together "name1" "command1" "name2" "command2" …: runs the bash commands at the same time, each
# with its output in a file; prints each one's output and time as it ends; fails (after all have
# ended) if any failed.
together() {
  local dir; dir=$(mktemp -d "${TMPDIR:-/tmp}/cms-test-together-XXXXXX")
  local at=$SECONDS names=() pids=() failed=()
  set -m  # each command in a process group of its own, so an interrupted run stops all of it
  while [ $# -ge 2 ]; do
    local i=${#names[@]}
    names+=("$1")
    echo "== $1 (started beside the others)"
    ( start=$SECONDS; set +e; bash -c "$2" >"$dir/$i.log" 2>&1; rc=$?; times >"$dir/$i.times"; echo "$rc $((SECONDS - start))" >"$dir/$i.rc"; exit $rc ) &
    pids+=($!)
    shift 2
  done
  # Ctrl-C (or a failure of this script) stops the commands still running.
  trap 'for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done; exit 130' INT TERM
  local left=${#pids[@]} shown=()
  while [ "$left" -gt 0 ]; do
    local running=()
    for i in "${!pids[@]}"; do [ -n "${shown[$i]:-}" ] || running+=("${pids[$i]}"); done
    wait -n "${running[@]}" 2>/dev/null || sleep 1
    for i in "${!pids[@]}"; do
      [ -e "$dir/$i.rc" ] && [ -z "${shown[$i]:-}" ] || continue
      shown[$i]=1; left=$((left - 1))
      read -r rc took <"$dir/$i.rc"
      echo "== ${names[$i]}: output"
      cat "$dir/$i.log"
      local used; used=$(cpu_of "$dir/$i.times")
      if [ "$rc" -eq 0 ]; then
        echo "   (${names[$i]}: $took s; cpu $used s; load $(load))"
      else
        echo "   (${names[$i]}: FAILED with exit code $rc after $took s; cpu $used s; load $(load))"
        failed+=("${names[$i]}")
      fi
    done
  done
  trap - INT TERM
  set +m
  rm -rf "$dir"
  echo "   (together: $((SECONDS - at)) s)"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "== failed: ${failed[*]}"
    return 1
  fi
}

together \
  "typecheck" "npx tsc -p tsconfig.json --noEmit" \
  "lint" "npx eslint . --max-warnings=0"
# ffmpeg first: the unit project holds the media pipeline's tests (server/media-encode), which run it.
stage "ffmpeg present (video features)" node scripts/ensure-ffmpeg.mjs
stage "unit (machines, pure helpers, media encoding) and path coverage per machine" node scripts/path-coverage.mjs
# timed NAME COMMAND…: runs it and prints its wall time and the load (inside a `together` chain).
timed() { local name=$1 at=$SECONDS rc=0; shift; "$@" || rc=$?; echo "   ($name: $((SECONDS - at)) s; load $(load))"; return "$rc"; }
export -f timed load
together \
  "views (Testing Library in jsdom), then server on embedded PGlite" \
    "timed views npx vitest run --project views && timed 'server on PGlite' npx vitest run --project server" \
  "server on PostgreSQL" \
    "node scripts/with-fresh-postgres.mjs npx vitest run --project server" \
  "build, then browser (Chromium, two workers)" \
    "timed build env NODE_ENV=production npx vite build && node scripts/ensure-chromium.mjs && timed browser npx vitest run --project e2e --maxWorkers=2"
cpu_now
echo "== all stages passed in $((SECONDS - started)) s (cpu $CPU s; load $(load))"
