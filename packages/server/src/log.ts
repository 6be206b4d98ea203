// `npm start` in a terminal prints short, readable lines; anywhere else (a container, a file, a
// log collector) one JSON object per line, as before (issue 16 'Also').
import type { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export function createLog(level: string, out: Writable & { isTTY?: boolean } = process.stdout): Logger {
  if (!out.isTTY) return out === process.stdout ? pino({ level }) : pino({ level }, out);
  return pino(
    { level },
    pretty({
      destination: out,
      colorize: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId',
    }),
  );
}
