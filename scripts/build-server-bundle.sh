#!/usr/bin/env bash
# Builds the server's runtime folder: @ferry/server and the Ferry packages it needs, packed as they
# would be published and installed with production dependencies only (no TypeScript, tsx, Vite,
# test tools). The Dockerfile's build stage runs this script, and test/deployment runs the same
# script and starts what it made, so the image's contents are tested without a container runtime.
#
#   scripts/build-server-bundle.sh OUT_DIR
#   cd OUT_DIR && node node_modules/@ferry/server/bin/ferry-server.js   # or: npx ferry-server
#
# Needs an installed checkout (npm ci); builds what is out of date first. OUT_DIR must be empty or
# absent. The @ferry packages come from tarballs kept in OUT_DIR/packages, so the folder installs
# again without any registry holding Ferry.
set -euo pipefail

out="${1:?usage: scripts/build-server-bundle.sh OUT_DIR}"
root="$(cd "$(dirname "$0")/.." && pwd)"

if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "build-server-bundle: $out is not empty" >&2
  exit 2
fi
mkdir -p "$out/packages"
out="$(cd "$out" && pwd)"

# dist/ of every package, and the web funnel and console the server package carries (prepack copies them).
node "$root/scripts/build.mjs"

for name in contracts dev-tools server; do
  (cd "$root/packages/$name" && npm pack --silent --pack-destination "$out/packages" >/dev/null)
done

version="$(node -p "require('$root/packages/server/package.json').version")"
cat >"$out/package.json" <<JSON
{
  "name": "ferry-server-runtime",
  "version": "$version",
  "private": true,
  "description": "The Ferry server with its production dependencies (scripts/build-server-bundle.sh).",
  "type": "module",
  "scripts": { "start": "exec ferry-server" },
  "dependencies": {
    "@ferry/contracts": "file:packages/ferry-contracts-$version.tgz",
    "@ferry/dev-tools": "file:packages/ferry-dev-tools-$version.tgz",
    "@ferry/server": "file:packages/ferry-server-$version.tgz"
  }
}
JSON

cd "$out"
npm install --omit=dev --no-audit --no-fund --loglevel=error
echo "build-server-bundle: $out (start: node node_modules/@ferry/server/bin/ferry-server.js)"
