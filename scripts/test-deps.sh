#!/usr/bin/env bash
# Installs the Debian packages the test suite drives (run by `npm test` before the tests), only those
# missing, so a machine with Node and npm alone can run the whole suite. Each entry is "command:package".
set -euo pipefail
needed=()
for entry in "$@"; do
  command -v "${entry%%:*}" >/dev/null 2>&1 || needed+=("${entry#*:}")
done
[ ${#needed[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi
echo "installing test tools: ${needed[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
