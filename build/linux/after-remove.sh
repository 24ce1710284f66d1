#!/bin/sh
# Debian package removal: take the udev rule away again.
set -e
rm -f /lib/udev/rules.d/60-shipping-station-printers.rules
if command -v udevadm >/dev/null 2>&1; then udevadm control --reload-rules || true; fi
