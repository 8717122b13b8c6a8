"""Run `mindnet ARGS` with an audit hook that records every network attempt.

Usage: python socket_child.py LOG -- ARGS. Before anything of the app is imported, an audit
hook (sys.addaudithook) appends one JSON line to LOG for each socket made for a network
family, each bind, listen-to-be (bind), connect, send to an address, name lookup and HTTP or
URL opening — attempts, whether or not they would succeed. Native code that opens sockets
without Python is watched from the outside by the test (the process's socket descriptors).
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

LOCAL_FAMILIES = {socket.AF_UNIX}
WATCHED = {
    "socket.bind",
    "socket.connect",
    "socket.sendto",
    "socket.sendmsg",
    "socket.getaddrinfo",
    "socket.gethostbyname",
    "socket.gethostbyaddr",
    "http.client.connect",
    "urllib.Request",
    "ftplib.connect",
    "smtplib.connect",
    "webbrowser.open",
}


def main() -> int:
    log_path, argv = sys.argv[1], sys.argv[3:]
    log = open(log_path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - lives as long as the process

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "socket.__new__":
            family = args[1]
            if family in LOCAL_FAMILIES:
                return
        elif event not in WATCHED:
            return
        log.write(json.dumps({"event": event, "args": [repr(a)[:200] for a in args]}) + "\n")

    sys.addaudithook(hook)
    from mindnet_desktop.cli.main import main as mindnet

    return mindnet(argv)


if __name__ == "__main__":
    sys.exit(main())
