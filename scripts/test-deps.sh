#!/usr/bin/env bash
# Installs the Debian packages the test suite drives (run by `npm test` before the tests), only those
# missing, so a machine with Node and npm alone can run the whole suite. Each entry is "command:package".
set -euo pipefail
needed=()
for entry in "$@"; do
  command -v "${entry%%:*}" >/dev/null 2>&1 || needed+=("${entry#*:}")
done
# PostgreSQL's server binaries are off PATH on Debian (/usr/lib/postgresql/<version>/bin): the
# tests that run on both engines start a throwaway cluster from them (test/helpers/postgres.ts).
pg_missing=
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  needed+=(postgresql)
  pg_missing=1
fi
[ ${#needed[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi
echo "installing test tools: ${needed[*]}"
if [ -n "$pg_missing" ]; then
  # The tests make their own clusters: no system-wide one created and started on port 5432.
  $sudo mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.d/courseforge-tests.conf >/dev/null
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
