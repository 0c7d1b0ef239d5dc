"""The HTTP protocol ``mathhammer serve`` runs: uvicorn's httptools protocol with a limit on the size
of a request's line and headers (docs/web.md, "Limits").

httptools itself has none: a client streaming one endless header made the server keep every byte
of it, copying the growing value at each read, which slowed every other request of the process
for seconds. h11 has such a limit, but costs more per request (docs/web.md gives the figures), so
the faster parser is kept and bounded here: it is given at most :data:`HEADER_BYTES` of a request's
head, and a head that has not ended there is answered 431 and disconnected. The app bounds the
count of headers (``limits.HeaderCount``).
"""

from __future__ import annotations

import json

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["HEADER_BYTES", "BoundedHttpTools"]

#: The most bytes of a request's line and headers the server reads (then 431).
HEADER_BYTES = 16 * 1024

_ANSWER = json.dumps({"error": "headers too large", "field": None,
                      "message": f"the request line and headers are over this server's limit of "
                                 f"{HEADER_BYTES // 1024} KiB"}).encode()
_REFUSAL = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(_ANSWER)).encode() + b"\r\nconnection: close\r\n\r\n" + _ANSWER)


class BoundedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol, fed at most :data:`HEADER_BYTES` bytes of a request's head.

    While a request's head is being read (from the connection's start, and after each request),
    the data is given to the parser only up to the limit; a head that has not ended by then is
    answered 431 and the connection closed, so what a client sends past it is never read. The
    body, once the head has ended, is fed as it comes (the app bounds it). (A head that begins in
    the same read as the end of the request before it is counted from that read's next slice: at
    most twice the limit.)
    """

    _reading_head = True  # from the connection's start until the first head ends
    _head_bytes = 0

    def data_received(self, data: bytes) -> None:
        while data:
            if not self._reading_head:  # a body (and what follows it): as it comes
                super().data_received(data)
                return
            room = HEADER_BYTES - self._head_bytes
            head, data = data[:room], data[room:]
            self._head_bytes += len(head)
            super().data_received(head)
            if self.transport.is_closing() or self.transport.get_protocol() is not self:  # refused (400), upgraded
                return
            if self._reading_head and self._head_bytes >= HEADER_BYTES:
                self.transport.write(_REFUSAL)
                self.transport.close()
                return

    def on_headers_complete(self) -> None:
        self._reading_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._reading_head = True  # the next request on this connection starts with its head
        self._head_bytes = 0
