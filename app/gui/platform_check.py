"""Why the window could not start, found before Qt aborts with a misleading message.

Qt's xcb platform plugin aborts the process when it cannot load, and from 6.5 always says "xcb-cursor0 or
libxcb-cursor0 is needed", whatever is really missing (often libxcb-icccm4 or libxcb-keysyms1), and it says the
same when the X server is still starting. :func:`platform_problem` looks first: it waits briefly for the display
to answer an X11 connection setup, then asks ``ldd`` which of the plugin's libraries are not installed, and words the
real cause. It imports no Qt module that opens a display; the checks take a few milliseconds when all is well.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

DISPLAY_WAIT_S = 3.0
"""How long to wait for an X server that is still starting (a launch just after the session began)."""


def _x_socket_address(display: str) -> tuple[int, object] | None:
    """(address family, address) of the X server for a ``DISPLAY`` value (":0", ":99.0", "host:10.0"), or None
    when it is not an X display name."""
    match = re.fullmatch(r"(?P<host>[^:]*):(?P<number>\d+)(?:\.\d+)?", display.strip())
    if match is None:
        return None
    host, number = match.group("host"), int(match.group("number"))
    if host in ("", "unix") or host.startswith("/"):
        path = host if host.startswith("/") else f"/tmp/.X11-unix/X{number}"
        return socket.AF_UNIX, path
    return socket.AF_INET, (host, 6000 + number)


X11_SETUP = struct.pack("<BxHHHHxx", 0x6C, 11, 0, 0, 0)
"""An X11 connection setup request (little-endian, protocol 11.0, no authorisation): any server that is ready
answers it, with success, failure or "authenticate" (all mean it is up)."""


def _x_server_answers(family: int, where: object, timeout_s: float = 1.0) -> bool:
    """True when an X server at ``where`` answers a connection setup (accepting the socket is not enough: a
    starting server accepts, then drops the connection)."""
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.settimeout(timeout_s)
        probe.connect(where)
        probe.sendall(X11_SETUP)
        reply = probe.recv(8)
    return len(reply) >= 1 and reply[0] in (0, 1, 2)


def display_ready(display: str, wait_s: float = DISPLAY_WAIT_S) -> bool:
    """True once the X server of ``display`` answers a connection setup, retrying for up to ``wait_s`` seconds;
    True too when ``display`` is not a name this check understands (Qt will judge)."""
    address = _x_socket_address(display)
    if address is None:
        return True
    family, where = address
    deadline = time.monotonic() + wait_s
    while True:
        try:
            if _x_server_answers(family, where):
                return True
        except OSError:
            pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)


def debian_package(soname: str) -> str:
    """The Debian / Ubuntu package that ships a library, by the naming policy: ``libxcb-icccm.so.4`` ->
    ``libxcb-icccm4``, ``libxkbcommon-x11.so.0`` -> ``libxkbcommon-x11-0``."""
    match = re.fullmatch(r"(?P<name>.+?)\.so\.(?P<version>\d+)(?:\.\d+)*", soname)
    if match is None:
        return soname
    name, version = match.group("name"), match.group("version")
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def missing_libraries(plugin: Path) -> list[str]:
    """The shared libraries ``plugin`` needs that the system lacks, as ``ldd`` reports them (empty when all are
    there, or when ``ldd`` is not available)."""
    ldd = shutil.which("ldd")
    if ldd is None or not plugin.exists():
        return []
    try:
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return list(dict.fromkeys(re.findall(r"^\s*(\S+)\s*=>\s*not found", out, re.M)))


def xcb_plugin() -> Path | None:
    """Where Qt's xcb platform plugin is (the installed PySide6's, frozen or not)."""
    try:
        from PySide6.QtCore import QLibraryInfo  # QtCore opens no display
    except ImportError:
        return None
    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms" / "libqxcb.so"


def platform_problem(environ: dict[str, str] | None = None) -> str | None:
    """Why Qt's window system plugin would fail to start, in words, or None when nothing is known to be wrong.

    Only X11 (xcb) on Linux is checked; other platforms and offscreen / Wayland sessions return None.
    """
    env = os.environ if environ is None else environ
    if not sys.platform.startswith("linux"):
        return None
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0]
    if platform not in ("", "xcb") or (not platform and env.get("WAYLAND_DISPLAY")):
        return None
    display = env.get("DISPLAY", "")
    if not display:
        return None  # display_available() reports this case
    if not display_ready(display):
        return (f"storplan: the X display {display} does not answer (the X server may still be starting, or "
                "DISPLAY names one that is not running); try again in a moment")
    plugin = xcb_plugin()
    missing = missing_libraries(plugin) if plugin is not None else []
    if missing:
        packages = " ".join(debian_package(m) for m in missing)
        return (f"storplan: cannot open a window: Qt's X11 plugin needs {', '.join(missing)}, which "
                f"{'is' if len(missing) == 1 else 'are'} not installed (Debian / Ubuntu: "
                f"sudo apt-get install {packages})")
    return None
