// The WebSocket server of scripts/ws-bench.sh: Node.js with Debian's `ws` (apt-get install -y nodejs node-ws; run
// with NODE_PATH=/usr/share/nodejs), the server both benchmark clients (WebSocketBench and scripts/ws_bench_client.py)
// talk to, so neither is measured against a server of its own.
//
//   node ws_echo_server.js PORT [WORKERS]   serves plain ws:// on 127.0.0.1:PORT; WORKERS > 1 forks that many
//                                           processes sharing the port (node's cluster module), default 1
//
//   /echo        echoes every message back as it came (text as text, binary as binary)
//   /count?n=N   sends N binary messages of 65536 octets (the first 4: the message's index, big-endian; the rest:
//                octet i is i % 251), then closes with 1000. At most 16 messages are handed to the socket and not
//                yet written, so a client that reads slowly holds the server back (its send buffer, then TCP's
//                window) rather than growing the server's memory.
//   anything else: 404 before the upgrade.
//
// No permessage-deflate (ws's server default): both clients send and receive the messages as they are.
'use strict';
const cluster = require('cluster');
const http = require('http');
const { WebSocketServer } = require('ws');

const port = Number(process.argv[2]);
const workers = Number(process.argv[3] || 1);

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  const stop = () => {
    for (const id in cluster.workers) cluster.workers[id].process.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const body = Buffer.alloc(65536);
  for (let i = 4; i < body.length; i++) body[i] = (i - 4) % 251;
  const server = http.createServer((request, response) => {
    response.writeHead(404);
    response.end('no such path\n');
  });
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 << 20 });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname !== '/echo' && url.pathname !== '/count') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on('error', () => {});
      if (url.pathname === '/echo') {
        ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
      } else {
        count(ws, Math.min(Number(url.searchParams.get('n') || '1'), 1 << 20));
      }
    });
  });
  server.listen(port, '127.0.0.1');
  process.on('SIGTERM', () => process.exit(0));

  function count(ws, total) {
    let sent = 0;
    let inFlight = 0;
    const pump = () => {
      while (inFlight < 16 && sent < total && ws.readyState === ws.OPEN) {
        const message = Buffer.from(body);
        message.writeUInt32BE(sent, 0);
        sent++;
        inFlight++;
        ws.send(message, { binary: true }, () => {
          inFlight--;
          if (sent === total && inFlight === 0) ws.close(1000, '');
          else pump();
        });
      }
    };
    pump();
  }
}
