#!/usr/bin/env bash
# Install Tucana Companion on Raspberry Pi OS 64-bit (Bookworm or Trixie) so that it starts at
# boot: apt packages, a virtual environment in /opt/tucana, the systemd service `tucana`, the
# config /etc/tucana/tucana.toml, hostname tucana (http://tucana.local), Wi-Fi power saving off
# and, with --hotspot, the Pi's own Wi-Fi network. Safe to run again: it only changes what
# differs (that is also how to update).
#
# usage: sudo deploy/install.sh [options]
#   --dry-run            print every command and file it would write; change nothing
#   --hotspot            give the Pi its own Wi-Fi network (password generated, kept in the config)
#   --no-hotspot         turn that network off again (the Pi joins your home Wi-Fi)
#   --ssid NAME          the hotspot's network name (default: Tucana)
#   --wifi-country CC    Wi-Fi country code (GB, FR, ES, US...), needed once for the hotspot
#   --port N             port written into a new config (default 80: http://tucana.local)
#   --hostname NAME      host name to take (default tucana); --keep-hostname leaves it alone
#   --prefix DIR         where the virtual environment goes (default /opt/tucana)
#   --uninstall          remove the service, the environment, the hotspot; keep games and config
#   --purge              with --uninstall: also delete /etc/tucana, /var/lib/tucana, user tucana
#   --os-release FILE    read the OS version from FILE (default /etc/os-release; for testing)
#   --print-unit         print the systemd unit as it would be installed, and stop
set -euo pipefail

SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/hotspot.sh
. "$SRC_DIR/deploy/hotspot.sh"

PREFIX=/opt/tucana
CONFIG_DIR=/etc/tucana
CONFIG_FILE=$CONFIG_DIR/tucana.toml
DATA_DIR=/var/lib/tucana
UNIT_FILE=/etc/systemd/system/tucana.service
POWERSAVE_CONF=/etc/NetworkManager/conf.d/tucana-wifi-powersave.conf
SERVICE_USER=tucana
SERVICE_GROUPS=(video gpio audio)  # camera; /dev/gpiochip*; espeak-ng through ALSA
SYSTEM_PYTHON=/usr/bin/python3     # Debian's, the one python3-picamera2 is built for
OS_RELEASE=${TUCANA_OS_RELEASE:-/etc/os-release}
PI_MODEL=${TUCANA_PI_MODEL:-/proc/device-tree/model}
PASSWORD_CHARS=23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ  # no 0/O, 1/l/I
PASSWORD_LENGTH=12  # about 70 bits from the 56 characters above

ACTION=install
PURGE=0
HOTSPOT=keep
SSID=""
PORT=""
HOST_NAME=tucana
CODENAME=""

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }

parse_args() {
  while [ $# -gt 0 ]; do
    case $1 in
      --dry-run) DRY_RUN=1 ;;
      --hotspot) HOTSPOT=on ;;
      --no-hotspot) HOTSPOT=off ;;
      --ssid) SSID=${2:?--ssid needs a name}; shift ;;
      --wifi-country) HOTSPOT_COUNTRY=${2:?--wifi-country needs a code}; shift ;;
      --port) PORT=${2:?--port needs a number}; shift ;;
      --hostname) HOST_NAME=${2:?--hostname needs a name}; shift ;;
      --keep-hostname) HOST_NAME="" ;;
      --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
      --uninstall) ACTION=uninstall ;;
      --purge) PURGE=1 ;;
      --os-release) OS_RELEASE=${2:?--os-release needs a file}; shift ;;
      --print-unit) ACTION=print-unit ;;
      -h | --help) usage; exit 0 ;;
      *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
  done
  [ -z "$PORT" ] || [[ $PORT =~ ^[0-9]+$ && $PORT -ge 1 && $PORT -le 65535 ]] || die "--port wants 1-65535, not '$PORT'"
  [ -z "$HOST_NAME" ] || [[ $HOST_NAME =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]] || die "--hostname wants letters, digits and dashes, not '$HOST_NAME'"
  [[ $PREFIX == /* ]] || die "--prefix wants an absolute folder, not '$PREFIX'"
  VENV=$PREFIX/venv
}

render_unit() { sed "s#/opt/tucana#$PREFIX#g" "$SRC_DIR/deploy/tucana.service"; }

# --- checks -----------------------------------------------------------------------------------

detect_os() {
  [ -r "$OS_RELEASE" ] || die "cannot read $OS_RELEASE"
  CODENAME=$(sed -n 's/^VERSION_CODENAME=//p' "$OS_RELEASE" | tr -d '"' | head -n 1)
  case $CODENAME in
    bookworm | trixie) say "Raspberry Pi OS / Debian $CODENAME" ;;
    *) die "unsupported OS release '${CODENAME:-unknown}' (from $OS_RELEASE): this installer supports Raspberry Pi OS 64-bit Bookworm and Trixie" ;;
  esac
}

preflight() {
  local arch
  if [ "$DRY_RUN" = 1 ]; then
    say "dry run: nothing will change"
  elif [ "$(id -u)" != 0 ]; then
    die "run it with sudo: sudo $0"
  fi
  detect_os
  arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
  if [ "$arch" != arm64 ]; then
    [ "$DRY_RUN" = 1 ] || die "architecture '$arch': install the 64-bit Raspberry Pi OS (arm64)"
    warn "architecture '$arch', not arm64 (carrying on: dry run)"
  fi
  if ! { [ -r "$PI_MODEL" ] && tr -d '\0' <"$PI_MODEL" | grep '^Raspberry Pi' >/dev/null; }; then
    warn "this does not look like a Raspberry Pi: the camera and the pins will be simulated"
  fi
}

# --- packages -----------------------------------------------------------------------------------

apt_packages() {
  local packages=(
    python3 python3-venv
    python3-picamera2  # from apt, never pip: it is built against apt's numpy and libcamera
    python3-numpy      # the numpy picamera2 was built for; pip is held to its version
    python3-lgpio      # gpiozero's pin driver on the Pi 4 and 5
    espeak-ng
    avahi-daemon libnss-mdns  # http://tucana.local
    network-manager dnsmasq-base iw rfkill  # the hotspot (dnsmasq hands out addresses)
  )
  if [ "$CODENAME" = bookworm ]; then
    # Bookworm's picamera2 is built against numpy 1.24; PyPI's OpenCV now wants numpy 2, which
    # would break picamera2 ("numpy.dtype size changed"). So OpenCV comes from apt there too.
    # Trixie's picamera2 is built against numpy 2, so the PyPI OpenCV wheel suits it.
    packages+=(python3-opencv)
  fi
  printf '%s\n' "${packages[@]}"
}

install_packages() {
  local packages
  mapfile -t packages < <(apt_packages)
  say "apt packages"
  run apt-get update
  # No recommends: python3-picamera2 would pull in a desktop's worth of Qt preview packages.
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
}

# Requirements of pyproject.toml that pip installs; on Bookworm numpy and OpenCV are apt's.
pip_requirements() {
  "$SYSTEM_PYTHON" - "$SRC_DIR/pyproject.toml" "$CODENAME" <<'PY'
import re, sys, tomllib
with open(sys.argv[1], "rb") as handle:
    requirements = tomllib.load(handle)["project"]["dependencies"]
apt_owned = {"numpy", "opencv-python", "opencv-python-headless", "opencv-contrib-python",
             "opencv-contrib-python-headless"} if sys.argv[2] == "bookworm" else set()
for requirement in requirements:
    name = re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")
    if name not in apt_owned:
        print(requirement)
PY
}

# Pin numpy to apt's version so pip never installs a second, incompatible one in the venv.
pip_constraints() {
  local version
  if version=$("$SYSTEM_PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null); then
    echo "numpy==$version"
  elif [ "$DRY_RUN" = 1 ]; then
    echo "numpy==VERSION-OF-PYTHON3-NUMPY  # read from apt's numpy once it is installed"
  else
    die "apt's python3-numpy is not importable by $SYSTEM_PYTHON"
  fi
}

venv_ready() {
  [ -x "$VENV/bin/python" ] && grep -Eq '^include-system-site-packages *= *true' "$VENV/pyvenv.cfg" 2>/dev/null
}

install_environment() {
  local stage
  say "virtual environment $VENV (sees apt's picamera2, numpy, lgpio)"
  run install -d -m 0755 "$PREFIX"
  if venv_ready; then
    say "unchanged: $VENV"
  else
    run "$SYSTEM_PYTHON" -m venv --clear --system-site-packages "$VENV"
  fi
  pip_requirements | write_file "$PREFIX/requirements.txt" 0644 root:root || true
  pip_constraints | write_file "$PREFIX/constraints.txt" 0644 root:root || true
  run "$VENV/bin/pip" install --disable-pip-version-check --no-input \
    -c "$PREFIX/constraints.txt" -r "$PREFIX/requirements.txt"
  # The package itself without dependencies (they are above), from a copy of the source so
  # the build leaves nothing root-owned in your checkout; reinstalled every run to update.
  stage=$PREFIX/src
  run rm -rf "$stage"
  run install -d -m 0755 "$stage"
  run tar -C "$SRC_DIR" --exclude=./.git --exclude=./.venv --exclude='*.egg-info' \
    --exclude=./build -cf "$PREFIX/src.tar" .
  run tar -C "$stage" -xf "$PREFIX/src.tar"
  run "$VENV/bin/pip" install --disable-pip-version-check --no-input --no-deps --force-reinstall "$stage"
  run rm -rf "$stage" "$PREFIX/src.tar"
  # Scripts and the README stay with the install, for hotspot.sh, smoke tests and the unit's docs.
  run install -d -m 0755 "$PREFIX/deploy" "$PREFIX/deploy/smoke"
  run install -m 0755 "$SRC_DIR/deploy/hotspot.sh" "$SRC_DIR/deploy/install.sh" "$PREFIX/deploy/"
  run install -m 0644 "$SRC_DIR/deploy/lib.sh" "$SRC_DIR/deploy/tucana.service" "$SRC_DIR/deploy/tucana.toml" "$PREFIX/deploy/"
  run cp -r "$SRC_DIR/deploy/smoke/." "$PREFIX/deploy/smoke/"
  run install -m 0644 "$SRC_DIR/README.md" "$PREFIX/README.md"
  say "checking that numpy, OpenCV and picamera2 import together"
  run "$VENV/bin/python" -c 'import numpy, cv2; print("numpy", numpy.__version__, "opencv", cv2.__version__)'
  if [ "$DRY_RUN" = 1 ] || "$SYSTEM_PYTHON" -c 'import picamera2' 2>/dev/null; then
    run "$VENV/bin/python" -c 'import picamera2; print("picamera2 imports")'
  fi
}

# --- user, config, service ----------------------------------------------------------------------

install_user() {
  local group
  say "user $SERVICE_USER"
  if getent passwd "$SERVICE_USER" >/dev/null; then
    say "unchanged: user $SERVICE_USER exists"
  else
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
      --shell /usr/sbin/nologin --comment "Tucana Companion" "$SERVICE_USER"
  fi
  for group in "${SERVICE_GROUPS[@]}"; do
    if ! getent group "$group" >/dev/null; then
      warn "no group '$group' on this system (not a Raspberry Pi?)"
    elif id -nG "$SERVICE_USER" 2>/dev/null | tr ' ' '\n' | grep -Fx "$group" >/dev/null; then
      say "unchanged: $SERVICE_USER is in $group"
    else
      run usermod -a -G "$group" "$SERVICE_USER"
    fi
  done
  run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"
}

new_password() {
  "$SYSTEM_PYTHON" -c "import secrets, sys; print(''.join(secrets.choice(sys.argv[1]) for _ in range($PASSWORD_LENGTH)))" "$PASSWORD_CHARS"
}

install_config() {
  local current_password current_ssid enabled
  say "configuration $CONFIG_FILE"
  run install -d -m 0755 "$CONFIG_DIR"
  if [ -f "$CONFIG_FILE" ]; then
    say "unchanged: $CONFIG_FILE exists (your edits are kept)"
    [ -z "$PORT" ] || toml_set "$CONFIG_FILE" "" port:int="$PORT"
  else
    # The documented defaults, with the Pi's port and data folder.
    sed -e "s#^port = 8000\$#port = ${PORT:-80}#" \
      -e "s#^\# data_dir = .*#data_dir = \"$DATA_DIR\"#" "$SRC_DIR/deploy/tucana.toml" |
      write_file "$CONFIG_FILE" 0640 "${CONFIG_OWNER:-root:$SERVICE_USER}" || true
  fi
  enabled=$(toml_get "$CONFIG_FILE" hotspot.enabled)
  [ "$HOTSPOT" != keep ] || HOTSPOT=$([ "$enabled" = true ] && echo on || echo off)
  if [ "$HOTSPOT" = on ]; then
    current_ssid=$(toml_get "$CONFIG_FILE" hotspot.ssid)
    current_password=$(toml_get "$CONFIG_FILE" hotspot.password)
    HOTSPOT_SSID=${SSID:-${current_ssid:-Tucana}}
    HOTSPOT_PASSWORD=${current_password:-$(new_password)}  # kept across runs once generated
    SECRETS+=("$HOTSPOT_PASSWORD")
    toml_set "$CONFIG_FILE" hotspot enabled=true ssid="$HOTSPOT_SSID" password="$HOTSPOT_PASSWORD"
  elif [ "$enabled" = true ]; then
    toml_set "$CONFIG_FILE" hotspot enabled=false
  fi
  if [ "$DRY_RUN" != 1 ]; then
    "$VENV/bin/python" -m web.settings --config "$CONFIG_FILE" >/dev/null ||
      die "$CONFIG_FILE has a mistake (see above); fix it and run the installer again"
  else
    run "$VENV/bin/python" -m web.settings --config "$CONFIG_FILE"
  fi
}

install_service() {
  say "systemd service tucana"
  if render_unit | write_file "$UNIT_FILE" 0644 root:root; then
    run systemctl daemon-reload
  fi
  run systemctl enable tucana.service
  # Restart, not start: a re-run (an update) must load the new code.
  run systemctl restart tucana.service
}

# --- network ----------------------------------------------------------------------------------------

install_hostname() {
  [ -n "$HOST_NAME" ] || return 0
  say "hostname $HOST_NAME (http://$HOST_NAME.local)"
  if [ "$(hostname)" = "$HOST_NAME" ]; then
    say "unchanged: hostname is $HOST_NAME"
  elif command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_hostname "$HOST_NAME"  # also fixes /etc/hosts
  else
    run hostnamectl set-hostname "$HOST_NAME"
    run sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$HOST_NAME/" /etc/hosts
  fi
  run systemctl enable avahi-daemon.service
  run systemctl restart avahi-daemon.service
}

install_wifi_powersave() {
  say "Wi-Fi power saving off (a sleeping radio makes phones lose the live page)"
  if printf '[connection]\n# 2 = disable: keep the radio awake for the phones at the table.\nwifi.powersave = 2' |
    write_file "$POWERSAVE_CONF" 0644 root:root; then
    if [ "$DRY_RUN" = 1 ] || systemctl is-active --quiet NetworkManager; then
      run systemctl reload NetworkManager.service
    fi
  fi
  if command -v iw >/dev/null 2>&1 && [ -e "/sys/class/net/$HOTSPOT_IFNAME" ]; then
    run iw dev "$HOTSPOT_IFNAME" set power_save off
  fi
}

install_hotspot() {
  if [ "$HOTSPOT" = on ]; then
    say "hotspot '$HOTSPOT_SSID'"
    hotspot_setup "$HOTSPOT_SSID" "$HOTSPOT_PASSWORD"
  elif hotspot_exists; then
    say "hotspot off"
    hotspot_off
  fi
}

summary() {
  local address port
  address=$(hostname -I 2>/dev/null | awk '{print $1}')
  port=$(toml_get "$CONFIG_FILE" port)
  port=${port:-${PORT:-80}}
  [ "$port" = 80 ] && port="" || port=":$port"
  say "done"
  echo "  The companion: http://${HOST_NAME:-$(hostname)}.local$port  (or http://${address:-THE-PI-ADDRESS}$port)"
  echo "  Its log:       journalctl -u tucana -f"
  echo "  Settings:      $CONFIG_FILE (then: sudo systemctl restart tucana)"
  if [ "$HOTSPOT" = on ]; then
    echo "  Wi-Fi:         '$HOTSPOT_SSID', password $HOTSPOT_PASSWORD (kept in $CONFIG_FILE); the Pi"
    echo "                 starts it at the next boot (now: sudo $PREFIX/deploy/hotspot.sh on)."
    echo "                 On it, the companion is also at http://10.42.0.1$port"
  fi
}

uninstall() {
  say "uninstalling"
  if [ -f "$UNIT_FILE" ] || [ "$DRY_RUN" = 1 ]; then
    run systemctl disable --now tucana.service
    run rm -f "$UNIT_FILE"
    run systemctl daemon-reload
  fi
  hotspot_remove
  if [ -f "$POWERSAVE_CONF" ] || [ "$DRY_RUN" = 1 ]; then
    run rm -f "$POWERSAVE_CONF"
  fi
  run rm -rf "$PREFIX"
  if [ "$PURGE" = 1 ]; then
    run rm -rf "$CONFIG_DIR" "$DATA_DIR"
    if getent passwd "$SERVICE_USER" >/dev/null || [ "$DRY_RUN" = 1 ]; then
      run userdel "$SERVICE_USER"
    fi
  else
    say "kept your games in $DATA_DIR and settings in $CONFIG_DIR (--purge deletes them)"
  fi
  say "left as they are: the hostname and the apt packages"
}

main() {
  parse_args "$@"
  case $ACTION in
    print-unit) render_unit ;;
    uninstall)
      [ "$DRY_RUN" = 1 ] || [ "$(id -u)" = 0 ] || die "run it with sudo"
      uninstall
      ;;
    install)
      preflight
      install_packages
      install_user
      install_environment
      install_config
      install_service
      install_hostname
      install_wifi_powersave
      install_hotspot
      summary
      ;;
  esac
}

# Run only when executed; the tests source this file to call its steps one by one.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
