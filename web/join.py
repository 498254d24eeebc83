"""How phones reach the Pi: the join address by IP, and the QR codes the table display shows."""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from typing import Any
from urllib.parse import urlsplit

import segno

QR_ERROR = "m"  # 15% recovery: survives glare on a tablet screen without growing the code much
SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address
IFNAMSIZ = 16  # Linux limit on an interface name, in bytes
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, loopback excluded (Linux; else best effort)."""
    found: list[str] = []
    if sys.platform.startswith("linux"):
        import fcntl

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for _index, name in socket.if_nameindex():
                packed = struct.pack("256s", name.encode()[: IFNAMSIZ - 1])
                try:
                    raw = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, packed)
                except OSError:
                    continue  # an interface without an IPv4 address
                found.append(socket.inet_ntoa(raw[20:24]))
    else:
        try:
            found = [i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
    return [a for a in dict.fromkeys(found) if not ipaddress.ip_address(a).is_loopback]


def lan_address(addresses: list[str] | None = None) -> str | None:
    """The address phones on the Wi-Fi should use: a private one first (the Pi's hotspot)."""
    candidates = _interface_addresses() if addresses is None else addresses
    private = [a for a in candidates if ipaddress.ip_address(a).is_private]
    return (private or candidates or [None])[0]


def join_url(request: Any, services: Any, path: str, addresses: list[str] | None = None) -> str:
    """The URL printed under the join QR code: by IP address, never 'localhost'."""
    host = request.host
    parts = urlsplit("//" + host)
    if _is_loopback(parts.hostname or ""):
        address = lan_address(addresses)
        if address:
            settings = getattr(services, "settings", None)
            port = str(parts.port or getattr(settings, "port", "") or "")
            host = f"{address}:{port}" if port and port != "80" else address
    return f"{request.scheme}://{host}{path}"


def qr_svg(content: str, title: str) -> str:
    """An inline SVG QR code (black on white, quiet zone included, scales with CSS)."""
    qr = segno.make(content, error=QR_ERROR, micro=False)
    return qr.svg_inline(scale=4, border=4, dark="#000", light="#fff", svgclass="qr", title=title,
                         omitsize=True)


def join_qr_svg(url: str) -> str:
    """The QR code that opens the seat page."""
    return qr_svg(url, url)


def wifi_text(ssid: str, password: str) -> str:
    """The Wi-Fi QR payload phones understand: WIFI:T:WPA;S:...;P:...;; with \\ ; , : \" escaped."""

    def escape(value: str) -> str:
        for char in '\\;,:"':
            value = value.replace(char, "\\" + char)
        return value

    if password:
        return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"
    return f"WIFI:T:nopass;S:{escape(ssid)};;"


def wifi_qr_svg(hotspot: Any) -> str | None:
    """The Wi-Fi join QR code when the Pi runs its own hotspot, else None."""
    if hotspot is None or not getattr(hotspot, "enabled", False) or not getattr(hotspot, "ssid", ""):
        return None
    return qr_svg(wifi_text(hotspot.ssid, getattr(hotspot, "password", "")), hotspot.ssid)
