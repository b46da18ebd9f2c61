/**
 * A loopback TCP proxy in front of the app, so a test can cut a live connection the way a network drop would
 * (the server never closes it) and read the raw requests the browser sends when it reconnects.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Raw request heads seen so far (first chunk of each client write that starts a request). */
  requests: string[];
  /** Destroys every open connection whose request line matches. Returns how many were cut. */
  cut(match: RegExp): number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<{ client: net.Socket; upstream: net.Socket; lastRequest: string }>();
  const requests: string[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    const conn = { client, upstream, lastRequest: '' };
    open.add(conn);
    client.on('data', (chunk) => {
      const text = chunk.toString('latin1');
      if (/^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/.test(text)) {
        conn.lastRequest = text;
        requests.push(text);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      open.delete(conn);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    cut(match) {
      let n = 0;
      for (const c of [...open])
        if (match.test(c.lastRequest.split('\r\n')[0])) {
          c.client.destroy();
          c.upstream.destroy();
          open.delete(c);
          n++;
        }
      return n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of open) {
          c.client.destroy();
          c.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
