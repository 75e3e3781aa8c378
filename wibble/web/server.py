"""Serving the app for real players: gevent's WSGI server, one process, a greenlet per connection.

All games live in this one process's memory, so there is exactly one worker.
Call ``gevent.monkey.patch_all()`` before importing this module (``wibble serve`` does).
"""

from __future__ import annotations

from typing import Any, TextIO

from gevent.pywsgi import WSGIHandler, WSGIServer


class Handler(WSGIHandler):  # type: ignore[misc]
    """Closes the TCP connection after a websocket ends.

    Without this, gevent goes back to reading the socket for the next HTTP
    request, parses the client's websocket close frame as one, and answers it
    with a raw HTTP 400 written onto what the client thinks is a websocket.
    """

    def handle_one_response(self) -> None:
        try:
            super().handle_one_response()
        finally:
            if self.environ.get("HTTP_UPGRADE", "").lower() == "websocket":
                self.close_connection = True


def make_server(app: Any, host: str, port: int, access_log: TextIO | None = None) -> WSGIServer:
    return WSGIServer((host, port), app, handler_class=Handler, log=access_log)
