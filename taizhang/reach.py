"""Where phones reach the server ``taizhang serve`` starts, and the words it prints about it.

``network_address`` asks the kernel which address it would send from (a UDP ``connect`` sends
nothing): the address of the network the default route leaves by. ``tests/system/test_make_run.py``
decodes the printed QR code and opens the address.
"""
import io
import ipaddress
import socket

import segno

#: Where the kernel is asked for a route to: TEST-NET-2 (never a real host), then the private ranges.
PROBES = ("198.51.100.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")
WILDCARDS = ("", "0.0.0.0", "::", "[::]")
README_HTTPS = 'docs/server.md, "Plain http and https"'


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.0.0.0/8, ::1, localhost)."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def network_address(probes=PROBES) -> str | None:
    """The machine's IPv4 address on the network its traffic leaves by, or None (no network)."""
    for probe in probes:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
            except OSError:
                continue
            address = udp.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
            return address
    return None


def url_of(host: str, port: int) -> str:
    """``http://host:port``, IPv6 addresses in brackets.

    >>> url_of("192.168.1.23", 5000)
    'http://192.168.1.23:5000'
    >>> url_of("::1", 8000)
    'http://[::1]:8000'
    """
    name = host.strip("[]")
    return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"


def network_url(host: str, port: int, find=network_address) -> str | None:
    """The address phones on the network open when the server listens on ``host``: None on loopback.

    >>> network_url("127.0.0.1", 5000) is None
    True
    >>> network_url("0.0.0.0", 5000, find=lambda: "192.168.1.23")
    'http://192.168.1.23:5000'
    >>> network_url("192.168.1.40", 8000)
    'http://192.168.1.40:8000'
    """
    if is_loopback(host):
        return None
    if host in WILDCARDS:
        address = find()
        return url_of(address, port) if address else None
    return url_of(host, port)


def qr_code(link: str) -> str:
    """The QR code of ``link`` in block characters, for a terminal (black on white, a quiet zone of 2)."""
    text = io.StringIO()
    segno.make(link, error="m").terminal(out=text, compact=True, border=2)
    return text.getvalue()


def announcement(host: str, port: int, phones_url: str | None, public_url: str | None = None) -> str:
    """What the terminal shows once listening; phones are told ``public_url`` (``TAIZHANG_PUBLIC_URL``) when set."""
    here = url_of("127.0.0.1" if host in WILDCARDS else host, port)
    lines = ["", "台帳 Taizhang is serving."]
    address = public_url or phones_url
    if address:
        lines += ["", f"  Phones open: {address}", "  (on the same Wi-Fi; or scan this code with the phone's camera)",
                  "", qr_code(address).rstrip("\n"), ""]
        if address.startswith("http://"):
            lines.append(f"  Plain http: phones cannot reopen the page offline nor install it; see {README_HTTPS}.")
    elif is_loopback(host):
        lines += ["", f"  Only this machine can open it: {here}",
                  "  (no phone can: serve on the network with `make run` or `taizhang serve --host 0.0.0.0`)"]
    else:
        lines += ["", f"  No network address found for this machine: phones open http://<its address>:{port}"]
    lines += [f"  This machine: {here}    API: {here}/api/docs", "  Stop with Ctrl+C.", ""]
    return "\n".join(lines)
