#!/bin/sh
# Debian package post-install (electron-builder deb.afterInstall): install the
# udev rule that lets the packer open USB label printers, and apply it now.
set -e
RULE="/opt/Shipping Station/resources/udev/60-shipping-station-printers.rules"
if [ -f "$RULE" ] && [ -d /lib/udev/rules.d ]; then
  install -m 0644 "$RULE" /lib/udev/rules.d/60-shipping-station-printers.rules
  if command -v udevadm >/dev/null 2>&1; then
    udevadm control --reload-rules || true
    udevadm trigger --subsystem-match=usb --action=change || true
  fi
fi
