#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A fake Anthropic API for tests/integration/claude_credential.sh.

fake_anthropic.py LOG PORTFILE: listens on 127.0.0.1 (a free port, written
to PORTFILE once it listens), appends one JSON line to LOG for every
request (method, path, headers), and answers POST /v1/messages with a
short assistant message ("hi"), streamed as server-sent events when the
request asks for a stream, as a JSON message otherwise. Everything else
is answered 404 with an Anthropic-style error. It runs until killed.
"""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG, PORTFILE = sys.argv[1], sys.argv[2]
TEXT = "hi"


def message(model):
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": TEXT}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, body):
        line = {"method": self.command, "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()}}
        try:
            line["stream"] = bool(json.loads(body or b"{}").get("stream"))
        except (ValueError, AttributeError):
            line["stream"] = None
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    def send(self, code, ctype, data):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_fake")
        self.end_headers()
        self.wfile.write(data)

    def not_found(self):
        self.send(404, "application/json", json.dumps(
            {"type": "error", "error": {"type": "not_found_error", "message": "fake"}}).encode())

    def do_GET(self):
        self.record(b"")
        self.not_found()

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        self.record(body)
        path = self.path.split("?", 1)[0]
        try:
            req = json.loads(body or b"{}")
        except ValueError:
            req = {}
        model = req.get("model", "claude-fake")
        if path == "/v1/messages/count_tokens":
            self.send(200, "application/json", b'{"input_tokens": 1}')
        elif path != "/v1/messages":
            self.not_found()
        elif not req.get("stream"):
            self.send(200, "application/json", json.dumps(message(model)).encode())
        else:
            m = message(model)
            m["content"], m["stop_reason"] = [], None
            events = [
                ("message_start", {"type": "message_start", "message": m}),
                ("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "text_delta", "text": TEXT}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                ("message_delta", {"type": "message_delta",
                                   "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                   "usage": {"output_tokens": 1}}),
                ("message_stop", {"type": "message_stop"}),
            ]
            data = "".join("event: %s\ndata: %s\n\n" % (e, json.dumps(d)) for e, d in events)
            self.send(200, "text/event-stream", data.encode())


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
tmp = PORTFILE + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write("%d\n" % server.server_address[1])
os.rename(tmp, PORTFILE)
server.serve_forever()
