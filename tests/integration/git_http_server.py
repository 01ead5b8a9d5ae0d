#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""git_http_server.py ROOT USER PASSWORD_FILE PORT_FILE LOG: git's smart HTTP
(git http-backend, as CGI) for the repositories under ROOT, on 127.0.0.1 at
a free port (written to PORT_FILE once it listens), behind HTTP basic
authentication as USER with the password in PASSWORD_FILE (a file, so that
no command line holds it). Each request's verdict goes to LOG, one line:
"401 -", "403 USER" or "200 USER" (never a password)."""
import base64
import http.server
import os
import subprocess
import sys
import urllib.parse

ROOT, USER, PWFILE, PORTFILE, LOG = sys.argv[1:6]
with open(PWFILE) as f:
    PASSWORD = f.read().strip()


def note(line):
    with open(LOG, "a") as f:
        f.write(line + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def refuse(self, code, who):
        note("%d %s" % (code, who))
        self.send_response(code)
        if code == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="ruas-test"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def serve(self):
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Basic "):
            return self.refuse(401, "-")
        user, _, password = base64.b64decode(auth[6:]).decode("utf-8", "replace").partition(":")
        if user != USER or password != PASSWORD:
            return self.refuse(403, user or "-")
        url = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        env = {
            "PATH": "/usr/bin:/bin",
            "GIT_PROJECT_ROOT": ROOT,
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": urllib.parse.unquote(url.path),
            "QUERY_STRING": url.query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_USER": user,
            "REMOTE_ADDR": "127.0.0.1",
        }
        if self.headers.get("Git-Protocol"):
            env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        out = subprocess.run(["/usr/lib/git-core/git-http-backend"], input=body, env=env,
                             stdout=subprocess.PIPE, check=False).stdout
        head, _, rest = out.partition(b"\r\n\r\n")
        if not _:
            head, _, rest = out.partition(b"\n\n")
        status = 200
        headers = []
        for line in head.decode("latin-1").splitlines():
            k, _, v = line.partition(":")
            if k.lower() == "status":
                status = int(v.strip().split()[0])
            elif k:
                headers.append((k, v.strip()))
        note("%d %s" % (status, user))
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)

    do_GET = serve
    do_POST = serve


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
