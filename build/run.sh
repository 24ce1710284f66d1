#!/usr/bin/env bash
# One entry point for a fresh machine: makes sure Node 22+, the npm packages
# and (for tests) Debian's Chromium are there, then runs `npm run <script>`.
#   bash build/run.sh start      the station on its embedded sandbox
#   bash build/run.sh test       everything CI runs
# Extra arguments go to the npm script: bash build/run.sh start -- --printer socket://10.0.0.5:9100
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
script=${1:-start}
shift || true

# Node 22 LTS or newer: better-sqlite3 13 ships prebuilt binaries only for it.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 22 ]; then
  node22="$root/.cache/node22"
  if [ ! -x "$node22/node_modules/node/bin/node" ]; then
    echo "build/run.sh: Node $node_major found, installing Node 22 from the npm registry into .cache/node22" >&2
    mkdir -p "$node22"
    npm install --loglevel=warn --no-save --no-package-lock --prefix "$node22" node@22 >&2
  fi
  export PATH="$node22/node_modules/node/bin:$PATH"
fi

# npm packages, again whenever the lockfile changed since the last install.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --loglevel=warn >&2
fi

if [ "$script" = test ] || [ "$script" = test:e2e ] || [ "$script" = bench ]; then
  # chromium for Playwright; `script` (util-linux's bsdutils) gives the e2e scale its pseudo-terminal;
  # postgresql for the warehouse's integration tests.
  missing=""
  if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then missing="chromium"; fi
  if ! command -v script >/dev/null 2>&1; then missing="$missing bsdutils"; fi
  # PostgreSQL 15+ for the warehouse tests (test/support/postgres.ts runs its own throwaway cluster; no service is started).
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then missing="$missing postgresql"; fi
  # poppler-utils: pdftotext reads back the PDFs the station and the warehouse write (day reports).
  if ! command -v pdftotext >/dev/null 2>&1; then missing="$missing poppler-utils"; fi
  if [ -n "$missing" ]; then
    echo "build/run.sh: installing Debian's$missing for the tests" >&2
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd=sudo
    $sudo_cmd apt-get update -qq >&2
    # shellcheck disable=SC2086 # one word per package
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $missing >&2
  fi
fi

# glibc gives each thread that allocates (V8's compiler and GC helpers, libuv's pool) its own malloc
# arena, seldom hands freed pages back, and raises its mmap threshold as large blocks are freed: over a
# day of shipments the station's RSS crept up while its heap stayed flat. Two arenas, and blocks from
# 128 KiB always mapped on their own (given back when freed), keep it flat (`npm run bench -- --only soak`).
# A lower threshold (16 KiB) held RSS ≈ 30 MB lower but doubled a CSV import's time (a mmap per block).
# electron/launch.ts MALLOC_ENV gives the same to an Electron child (a unit test keeps the two equal).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"

exec npm run "$script" "$@"
