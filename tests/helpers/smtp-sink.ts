import net from 'node:net';

export interface SmtpSink {
  url: string;
  /** Every message accepted, as sent (MIME, quoted-printable decoded). */
  messages: string[];
  /** Messages refused so far (451 at the end of DATA). */
  refused: number;
  close(): Promise<void>;
}

/**
 * A tiny SMTP server on 127.0.0.1 that keeps what it is sent: enough of RFC 5321 for nodemailer
 * (no TLS, no auth). The first `failFirst` messages are refused with a temporary error, as a
 * mail server that is down for a moment would.
 */
export async function startSmtpSink(options: { failFirst?: number } = {}): Promise<SmtpSink> {
  const sink: Omit<SmtpSink, 'url' | 'close'> = { messages: [], refused: 0 };
  const server = net.createServer((socket) => {
    let buffer = '';
    let data: string[] | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line !== '.') {
            data.push(line.startsWith('..') ? line.slice(1) : line);
            continue;
          }
          const message = data.join('\r\n');
          data = undefined;
          if (sink.refused < (options.failFirst ?? 0)) {
            sink.refused += 1;
            reply('451 4.3.0 try again later');
          } else {
            sink.messages.push(decodeQuotedPrintable(message));
            reply('250 2.0.0 queued');
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') reply('250 sink');
        else if (command === 'DATA') {
          data = [];
          reply('354 end with .');
        } else if (command === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 OK');
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return Object.assign(sink, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
