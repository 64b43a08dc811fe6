#!/bin/sh
# Installs the peer browsers `make bench` compares Porthole with (Debian bookworm, as root or with
# sudo). MiniBrowser comes with libwebkit2gtk-4.1-0, which Porthole needs anyway.
set -e
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  surf epiphany-browser chromium firefox-esr xdg-desktop-portal xdg-desktop-portal-gtk
