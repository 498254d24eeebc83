#!/usr/bin/env bash
# The table's own Wi-Fi network for Tucana Companion: a NetworkManager access point.
#
#   sudo deploy/hotspot.sh setup    create or update it from [hotspot] in the config file
#   sudo deploy/hotspot.sh on       start it now and at every boot
#   sudo deploy/hotspot.sh off      stop it (the Pi goes back to your home Wi-Fi, to update)
#   deploy/hotspot.sh status        show it
#   sudo deploy/hotspot.sh remove   delete it
# Options: --dry-run (print, change nothing), --config FILE, --ifname wlan0, --country CC.
# deploy/install.sh --hotspot runs `setup` for you; phones then join it and open
# http://tucana.local or http://10.42.0.1.
set -euo pipefail

HOTSPOT_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/lib.sh
. "$HOTSPOT_HERE/lib.sh"

HOTSPOT_CONNECTION=tucana-hotspot
# NetworkManager's usual shared-network address, fixed so the URL by IP is always the same.
HOTSPOT_ADDRESS=10.42.0.1/24
# Above any home network's priority (0 by default), so at the table the Pi starts its own.
HOTSPOT_PRIORITY=100
HOTSPOT_IFNAME=${HOTSPOT_IFNAME:-wlan0}
HOTSPOT_COUNTRY=${HOTSPOT_COUNTRY:-}

hotspot_exists() {
  command -v nmcli >/dev/null 2>&1 &&
    nmcli -t -f NAME connection show 2>/dev/null | grep -Fx "$HOTSPOT_CONNECTION" >/dev/null
}

hotspot_active() {
  command -v nmcli >/dev/null 2>&1 &&
    nmcli -t -f NAME connection show --active 2>/dev/null | grep -Fx "$HOTSPOT_CONNECTION" >/dev/null
}

need_nmcli() {
  if ! command -v nmcli >/dev/null 2>&1; then
    [ "$DRY_RUN" = 1 ] || die "nmcli is missing: the hotspot needs NetworkManager (Raspberry Pi OS Bookworm or later)"
    warn "nmcli is missing here; showing what would run on the Pi"
  fi
}

# Wi-Fi stays blocked on Raspberry Pi OS until a regulatory country is set.
hotspot_country() {
  local country=$1
  [[ $country =~ ^[A-Z]{2}$ ]] || die "--country wants a two-letter country code such as GB, FR or ES, not '$country'"
  if command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_wifi_country "$country"
  else
    run iw reg set "$country"
  fi
}

# Create or update the access point (idempotent). Arguments: SSID PASSWORD.
hotspot_setup() {
  local ssid=$1 password=$2
  [ -n "$ssid" ] || die "the hotspot needs a network name (hotspot.ssid)"
  [ "${#password}" -ge 8 ] || die "the hotspot needs a password of at least 8 characters (hotspot.password)"
  SECRETS+=("$password")
  need_nmcli
  [ -z "$HOTSPOT_COUNTRY" ] || hotspot_country "$HOTSPOT_COUNTRY"
  if [ "$DRY_RUN" = 1 ] || command -v rfkill >/dev/null 2>&1; then
    run rfkill unblock wifi
  fi
  if hotspot_exists; then
    say "updating the Wi-Fi network '$ssid' ($HOTSPOT_CONNECTION)"
  else
    say "creating the Wi-Fi network '$ssid' ($HOTSPOT_CONNECTION)"
    run nmcli connection add type wifi con-name "$HOTSPOT_CONNECTION" ifname "$HOTSPOT_IFNAME" ssid "$ssid"
  fi
  # WPA2 (CCMP) only and PMF off: the widest range of phones joins without trouble.
  run nmcli connection modify "$HOTSPOT_CONNECTION" \
    connection.interface-name "$HOTSPOT_IFNAME" \
    connection.autoconnect yes \
    connection.autoconnect-priority "$HOTSPOT_PRIORITY" \
    802-11-wireless.ssid "$ssid" \
    802-11-wireless.mode ap \
    802-11-wireless.band bg \
    802-11-wireless.powersave 2 \
    ipv4.method shared \
    ipv4.addresses "$HOTSPOT_ADDRESS" \
    ipv6.method disabled \
    wifi-sec.key-mgmt wpa-psk \
    wifi-sec.proto rsn \
    wifi-sec.pairwise ccmp \
    wifi-sec.group ccmp \
    wifi-sec.pmf disable \
    wifi-sec.psk "$password"
}

hotspot_on() {
  need_nmcli
  hotspot_exists || [ "$DRY_RUN" = 1 ] || die "no hotspot yet: run 'sudo deploy/install.sh --hotspot' first"
  run nmcli connection modify "$HOTSPOT_CONNECTION" connection.autoconnect yes
  run nmcli connection up "$HOTSPOT_CONNECTION"
}

hotspot_off() {
  need_nmcli
  if ! hotspot_exists && [ "$DRY_RUN" != 1 ]; then
    say "no hotspot is set up"
    return 0
  fi
  run nmcli connection modify "$HOTSPOT_CONNECTION" connection.autoconnect no
  if hotspot_active || [ "$DRY_RUN" = 1 ]; then
    run nmcli connection down "$HOTSPOT_CONNECTION"
  fi
}

hotspot_remove() {
  if hotspot_exists; then
    run nmcli connection delete "$HOTSPOT_CONNECTION"
  else
    say "no hotspot connection to remove"
  fi
}

hotspot_status() {
  if ! hotspot_exists; then
    echo "hotspot: not set up"
    return 0
  fi
  nmcli -f connection.autoconnect,802-11-wireless.ssid,ipv4.addresses connection show "$HOTSPOT_CONNECTION"
  if hotspot_active; then echo "hotspot: on"; else echo "hotspot: off"; fi
}

hotspot_usage() {
  sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

hotspot_main() {
  local config=${TUCANA_CONFIG:-/etc/tucana/tucana.toml} action=""
  while [ $# -gt 0 ]; do
    case $1 in
      --dry-run) DRY_RUN=1 ;;
      --config) config=${2:?--config needs a file}; shift ;;
      --ifname) HOTSPOT_IFNAME=${2:?--ifname needs an interface}; shift ;;
      --country) HOTSPOT_COUNTRY=${2:?--country needs a code}; shift ;;
      -h | --help) hotspot_usage; return 0 ;;
      setup | on | off | status | remove) action=$1 ;;
      *) hotspot_usage >&2; die "unknown argument: $1" ;;
    esac
    shift
  done
  if [ "$action" != status ] && [ "$DRY_RUN" != 1 ] && [ "$(id -u)" != 0 ]; then
    die "run it with sudo"
  fi
  case $action in
    setup)
      [ -r "$config" ] || die "cannot read $config"
      hotspot_setup "$(toml_get "$config" hotspot.ssid)" "$(toml_get "$config" hotspot.password)"
      ;;
    on) hotspot_on ;;
    off) hotspot_off ;;
    status) hotspot_status ;;
    remove) hotspot_remove ;;
    *) hotspot_usage >&2; die "say setup, on, off, status or remove" ;;
  esac
}

# Run only when executed; install.sh sources this file for its functions.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  hotspot_main "$@"
fi
