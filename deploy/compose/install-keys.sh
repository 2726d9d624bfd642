#!/bin/sh
# Installs the manifest signing key and certificate for the compose stack's Ferry instances
# (docker-compose.yml, service ferry-keys): copies them from the host's folder, mounted read-only
# at FROM, into the volume the instances mount at TO, owned by the user the instances run as and
# readable by it alone.
#
#   install-keys.sh FROM TO        (as root; FERRY_KEYS_OWNER=uid:gid, default 1000:1000, the image's node)
#
# Why: `ferry keys generate` writes private-key.pem 0600 for the host user who ran it, whatever
# their uid, and a bind mount keeps that owner, so an instance running as 1000 could read the key
# only when the host user happened to be 1000. Root in this one-shot container reads it whoever owns
# it. Runs on every `docker compose up`, so a regenerated key replaces the one installed before.
# POSIX sh and coreutils only (the image is Debian slim). test/deployment runs this script.
set -eu

from="${1:?usage: install-keys.sh FROM TO}"
to="${2:?usage: install-keys.sh FROM TO}"
owner="${FERRY_KEYS_OWNER:-1000:1000}"
uid="${owner%%:*}"
gid="${owner#*:}"

for name in private-key.pem certificate.pem; do
  if [ ! -f "$from/$name" ]; then
    echo "install-keys: $name is missing from deploy/compose/keys: run" >&2
    echo "  npx ferry keys generate --out deploy/compose/keys" >&2
    echo "first (docs/deployment.md, \"Trying the stack locally\")." >&2
    exit 1
  fi
done

mkdir -p "$to"
# Written under temporary names, then renamed: an instance never reads half a key.
install -m 0400 -o "$uid" -g "$gid" "$from/private-key.pem" "$to/.private-key.pem.new"
install -m 0444 -o "$uid" -g "$gid" "$from/certificate.pem" "$to/.certificate.pem.new"
mv -f "$to/.private-key.pem.new" "$to/private-key.pem"
mv -f "$to/.certificate.pem.new" "$to/certificate.pem"
echo "install-keys: signing key and certificate installed for $owner"
