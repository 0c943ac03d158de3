# A server of the test's own on the loopback, started by a fixture as
# many Python suites do (http.server in a thread, port 0); with
# SERVER_URL set, a server the suite did not start (the host's).
import http.server
import os
import threading

import pytest


class Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"hello"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    if os.environ.get("SERVER_URL"):
        yield os.environ["SERVER_URL"]
        return
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()
