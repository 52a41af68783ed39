#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end tests when it is missing. Test tools may not
# download browsers here; Playwright drives this one through executablePath.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
echo "installing Debian's chromium for the end-to-end tests…"
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-core fonts-noto-cjk >/dev/null
command -v chromium
