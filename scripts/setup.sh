#!/usr/bin/env bash
# Installs what dowse needs on a fresh Debian machine: Go is expected on
# PATH; the Z3 solver library (libz3-dev) is installed when missing, and
# Chromium (chromium), in which the HTML report's tests load the page.
set -euo pipefail
if ! command -v go >/dev/null 2>&1; then
  echo "setup: the go command is not on PATH (install Go 1.26 or later)" >&2
  exit 1
fi
if [ ! -f /usr/include/z3.h ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  echo "setup: installing libz3-dev" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libz3-dev >/dev/null
fi
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  echo "setup: installing chromium (the HTML report's browser tests)" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
