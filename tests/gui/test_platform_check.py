"""The start-up check names the real reason the window cannot open (missing library vs display not ready)."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from app.gui import platform_check
from app.gui.platform_check import debian_package, display_ready, platform_problem


def test_debian_package_names():
    assert debian_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_package("libxcb-keysyms.so.1") == "libxcb-keysyms1"
    assert debian_package("libxcb-cursor.so.0") == "libxcb-cursor0"
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"


def _listen_later(path: str, delay_s: float, answer: bool = True) -> threading.Thread:
    """A stand-in X server on a unix socket from ``delay_s`` on: it answers one connection setup with "failed"
    (status 0, as a server refusing an unauthorised client does), or, with ``answer=False``, accepts connections
    and drops them unanswered (as a server still starting does)."""
    def serve():
        time.sleep(delay_s)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(4)
        server.settimeout(3)
        try:
            while True:
                conn, _ = server.accept()
                request = conn.recv(12)
                if answer and request[:1] == b"l":
                    conn.sendall(bytes([0, 0, 11, 0, 0, 0, 0, 0]))
                    conn.close()
                    break
                conn.close()
        except OSError:
            pass
        server.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


def test_display_that_starts_late_is_waited_for(tmp_path):
    path = str(tmp_path / "X5")
    thread = _listen_later(path, 0.4)  # the X server comes up a moment after the launch
    assert display_ready(f"{path}:5", wait_s=3.0)
    thread.join(2)


def test_display_that_accepts_but_does_not_answer_is_not_ready(tmp_path):
    path = str(tmp_path / "X9")
    _listen_later(path, 0, answer=False)
    time.sleep(0.1)
    assert not display_ready(f"{path}:9", wait_s=0.5)


def test_display_that_never_answers(tmp_path, monkeypatch):
    """No server: not ready once the wait is over, on platform_check's own clock (a fake one here, so a loaded
    machine cannot make the bound fail): it tried every 0.1 s and stopped at the 0.3 s deadline, no later."""
    class Clock:
        now, sleeps = 0.0, 0

        def monotonic(self) -> float:
            return self.now

        def sleep(self, seconds: float) -> None:
            self.sleeps += 1
            assert self.sleeps < 100, "still waiting long past the deadline"
            self.now += seconds

    clock = Clock()
    monkeypatch.setattr(platform_check, "time", clock)
    assert not display_ready(f"{tmp_path / 'X6'}:6", wait_s=0.3)
    assert 0.3 <= clock.now < 0.3 + 0.1 + 1e-9 and clock.sleeps in (3, 4), (clock.now, clock.sleeps)


def test_problem_names_the_missing_libraries_not_xcb_cursor(monkeypatch, tmp_path):
    path = str(tmp_path / "X7")
    _listen_later(path, 0)
    monkeypatch.setattr(platform_check, "missing_libraries",
                        lambda plugin: ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    monkeypatch.setattr(platform_check.sys, "platform", "linux")
    message = platform_problem({"DISPLAY": f"{path}:7"})
    assert message == ("storplan: cannot open a window: Qt's X11 plugin needs libxcb-icccm.so.4, libxcb-keysyms.so.1, "
                       "which are not installed (Debian / Ubuntu: sudo apt-get install libxcb-icccm4 libxcb-keysyms1)")
    assert "cursor" not in message


def test_problem_says_the_display_is_not_ready(monkeypatch, tmp_path):
    monkeypatch.setattr(platform_check.sys, "platform", "linux")
    monkeypatch.setattr(platform_check, "DISPLAY_WAIT_S", 0.2)
    monkeypatch.setattr(platform_check, "missing_libraries", lambda plugin: pytest.fail("checked libraries first"))
    message = platform_problem({"DISPLAY": f"{tmp_path / 'X8'}:8"})
    assert message is not None and "does not answer" in message and "may still be starting" in message


@pytest.mark.parametrize("env", [{"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"},
                                 {}])
def test_other_platforms_are_not_checked(monkeypatch, env):
    monkeypatch.setattr(platform_check.sys, "platform", "linux")
    monkeypatch.setattr(platform_check, "display_ready", lambda *a, **k: pytest.fail("probed the display"))
    assert platform_problem(env) is None


def test_missing_libraries_reads_ldd(monkeypatch, tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    ldd_output = ("\tlinux-vdso.so.1 (0x00007ffd)\n\tlibxcb-icccm.so.4 => not found\n"
                  "\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x0000)\n\tlibxcb-icccm.so.4 => not found\n")

    class Done:
        stdout = ldd_output

    monkeypatch.setattr(platform_check.shutil, "which", lambda name: "/usr/bin/ldd")
    monkeypatch.setattr(platform_check.subprocess, "run", lambda *a, **k: Done())
    assert platform_check.missing_libraries(plugin) == ["libxcb-icccm.so.4"]
