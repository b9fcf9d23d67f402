#!/usr/bin/env python3
"""A small SOCKS5 server (RFC 1928, CONNECT only) that requires username/password authentication (RFC 1929).

Used by scripts/proxies.sh for the proxy tests of NativeHTTPClient with SOCKS5 credentials: Debian's danted serves
the tests without authentication, but its username method checks the *system's* password database (there is no
user file of its own), so testing it would mean adding an account to the machine. This server checks one
username and password given on the command line instead, and logs one line per tunnel to stdout.

Usage: socks5-server.py PORT USERNAME PASSWORD     (listens on 127.0.0.1 only; stopped by its PID)
"""

import socket
import socketserver
import sys
import threading


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed early")
        data += chunk
    return data


def pipe(source, destination):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            destination.sendall(data)
    except OSError:
        pass
    finally:
        try:
            destination.shutdown(socket.SHUT_WR)
        except OSError:
            pass


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        client = self.request
        client.settimeout(30)
        try:
            version, count = read_exactly(client, 2)
            methods = read_exactly(client, count)
            if version != 5 or 2 not in methods:
                client.sendall(b"\x05\xff")
                print("refused: no username/password method offered", flush=True)
                return
            client.sendall(b"\x05\x02")
            auth_version, user_length = read_exactly(client, 2)
            user = read_exactly(client, user_length).decode("utf-8", "replace")
            (password_length,) = read_exactly(client, 1)
            password = read_exactly(client, password_length).decode("utf-8", "replace")
            if auth_version != 1 or user != self.server.username or password != self.server.password:
                client.sendall(b"\x01\x01")
                print(f"refused: bad credentials for user {user!r}", flush=True)
                return
            client.sendall(b"\x01\x00")
            version, command, _, address_type = read_exactly(client, 4)
            if address_type == 1:
                host = socket.inet_ntop(socket.AF_INET, read_exactly(client, 4))
            elif address_type == 4:
                host = socket.inet_ntop(socket.AF_INET6, read_exactly(client, 16))
            elif address_type == 3:
                (length,) = read_exactly(client, 1)
                host = read_exactly(client, length).decode("idna")
            else:
                client.sendall(b"\x05\x08\x00\x01\x00\x00\x00\x00\x00\x00")
                return
            port = int.from_bytes(read_exactly(client, 2), "big")
            if version != 5 or command != 1:
                client.sendall(b"\x05\x07\x00\x01\x00\x00\x00\x00\x00\x00")
                return
            # Loopback only: this test proxy never connects anywhere else.
            try:
                addresses = [a for a in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
                             if a[4][0] in ("127.0.0.1", "::1")]
                if not addresses:
                    raise OSError("not a loopback address")
                upstream = socket.create_connection((addresses[0][4][0], port), timeout=10)
            except OSError:
                client.sendall(b"\x05\x05\x00\x01\x00\x00\x00\x00\x00\x00")
                print(f"refused: cannot connect to {host}:{port}", flush=True)
                return
            client.sendall(b"\x05\x00\x00\x01\x7f\x00\x00\x01" + port.to_bytes(2, "big"))
            print(f"CONNECT user={user} target={host}:{port} type={address_type}", flush=True)
            client.settimeout(None)
            upstream.settimeout(None)
            thread = threading.Thread(target=pipe, args=(upstream, client), daemon=True)
            thread.start()
            pipe(client, upstream)
            thread.join(timeout=30)
            upstream.close()
        except (OSError, ConnectionError, ValueError):
            pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    port, username, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    server = Server(("127.0.0.1", port), Handler)
    server.username = username
    server.password = password
    print(f"listening on 127.0.0.1:{port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
