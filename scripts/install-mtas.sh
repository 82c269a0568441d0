#!/usr/bin/env bash
# The real MTAs of the conformance suite (test/conformance/), on Debian, as root:
# - Postfix from its Debian package, preseeded "No configuration" and with service starts forbidden
#   while installing (policy-rc.d), so no system daemon ever listens on port 25: the tests run their
#   own instances with private configurations; postgrey, its greylisting policy service, likewise;
# - Haraka is an npm devDependency (npm ci installs it);
# - Exim from Debian's exim4-daemon-light, unpacked (not installed: Debian's MTAs conflict with each
#   other) into .mta/exim, beside the one library it needs that the machine may lack.
# Idempotent: what is already there is kept. Fails (non-zero) when an MTA cannot be had: the suite
# never skips an MTA silently.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.mta"
mkdir -p "$root"

updated=0
apt_update() { if [ "$updated" = 0 ]; then apt-get update -qq; updated=1; fi; }

# Postfix, and postgrey (the greylisting policy service Postfix asks): installed with service starts
# forbidden, so neither runs as a system daemon; the tests start their own.
missing=()
command -v postfix >/dev/null 2>&1 || [ -x /usr/sbin/postfix ] || missing+=(postfix)
[ -x /usr/sbin/postgrey ] || missing+=(postgrey)
if [ "${#missing[@]}" -gt 0 ]; then
  apt_update
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  policy=/usr/sbin/policy-rc.d
  had_policy=0; [ -e "$policy" ] && had_policy=1
  [ "$had_policy" = 1 ] || { printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  [ "$had_policy" = 1 ] || rm -f "$policy"
fi

if [ ! -x "$root/exim/usr/sbin/exim4" ]; then
  apt_update
  work="$(mktemp -d)" && chmod 755 "$work"
  (cd "$work" && apt-get download -qq exim4-daemon-light exim4-base exim4-config libidn12)
  rm -rf "$root/exim.new" && mkdir -p "$root/exim.new"
  for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$root/exim.new"; done
  rm -rf "$work" "$root/exim" && mv "$root/exim.new" "$root/exim"
fi
echo "mtas: postfix $(postconf -d mail_version 2>/dev/null | cut -d' ' -f3), postgrey $(dpkg-query -W -f '${Version}' postgrey 2>/dev/null), exim $(LD_LIBRARY_PATH="$root/exim/usr/lib/x86_64-linux-gnu" "$root/exim/usr/sbin/exim4" --version 2>/dev/null | head -1 | cut -d' ' -f3 || echo '(unpacked)')"
