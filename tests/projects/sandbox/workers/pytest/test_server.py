import socket, subprocess, sys, threading

def test_thread_server_on_loopback():
    srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
    port = srv.getsockname()[1]
    def serve():
        c, _ = srv.accept(); c.sendall(b"hi"); c.close()
    t = threading.Thread(target=serve); t.start()
    s = socket.create_connection(("127.0.0.1", port)); assert s.recv(2) == b"hi"; t.join()

def test_child_process_server_on_loopback():
    code = "import socket,sys\ns=socket.socket();s.bind(('127.0.0.1',0));s.listen(1)\nprint(s.getsockname()[1],flush=True)\nc,_=s.accept();c.sendall(b'ok');c.close()"
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    port = int(p.stdout.readline())
    s = socket.create_connection(("127.0.0.1", port)); assert s.recv(2) == b"ok"; p.wait()
