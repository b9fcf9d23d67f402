import BothamTestSupport
import Foundation

extension PythonTLSServerProcess {
    /// A TLS server (Python's `ssl`) that requires a client certificate from `clientCA` and, unlike nginx, refuses a
    /// missing or untrusted one in TLS itself: with TLS 1.3 by an alert after the client's handshake ended
    /// (`certificate_required`, `unknown_ca`), with `maximumTLS12` during the handshake. A client it accepts gets
    /// `200` with its certificate's common name in `X-Client-CN`, then the connection closes; a WebSocket handshake
    /// gets `101`, one text message `hello <common name>` and a normal close.
    static func requiringClientCertificate(
        certificate: String, key: String, clientCA: String, maximumTLS12: Bool
    ) async throws -> PythonTLSServerProcess {
        try await offCooperativePool {
            try PythonTLSServerProcess(
                script: requiringClientCertificateScript,
                arguments: [certificate, key, clientCA, maximumTLS12 ? "1.2" : "1.3"])
        }
    }

    static let requiringClientCertificateScript = """
        import base64, hashlib, os, signal, socket, ssl, sys, threading
        # Stopped by SIGTERM, which the test process may have left ignored or blocked for its children.
        signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        certificate, key, client_ca, version = sys.argv[1:5]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        context.load_verify_locations(client_ca)
        context.verify_mode = ssl.CERT_REQUIRED
        if version == "1.2":
            context.maximum_version = ssl.TLSVersion.TLSv1_2
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)

        def serve(connection):
            connection.settimeout(10)
            try:
                tls = context.wrap_socket(connection, server_side=True)
                request = b""
                while b"\\r\\n\\r\\n" not in request:
                    chunk = tls.recv(4096)
                    if not chunk:
                        break
                    request += chunk
                subject = dict(field[0] for field in tls.getpeercert()["subject"])
                name = subject.get("commonName", "").encode()
                key = [line.split(b":", 1)[1].strip() for line in request.split(b"\\r\\n")
                       if line.lower().startswith(b"sec-websocket-key:")]
                if key:
                    # A WebSocket: one text message naming the client, then a normal close, answered.
                    digest = hashlib.sha1(key[0] + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()
                    tls.sendall(b"HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\n"
                                + b"Connection: Upgrade\\r\\nSec-WebSocket-Accept: " + base64.b64encode(digest)
                                + b"\\r\\n\\r\\n")
                    text = b"hello " + name
                    tls.sendall(bytes([0x81, len(text)]) + text + bytes([0x88, 2, 0x03, 0xE8]))
                    tls.recv(4096)
                else:
                    tls.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n"
                                + b"X-Client-CN: " + name + b"\\r\\n\\r\\nok")
                tls.close()
            except Exception:
                # The alert is sent; read what the client still sends until it closes (bounded), so closing here
                # sends no RST that could overtake the alert.
                try:
                    connection.settimeout(2)
                    while connection.recv(4096):
                        pass
                except Exception:
                    pass
                connection.close()

        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """
}
