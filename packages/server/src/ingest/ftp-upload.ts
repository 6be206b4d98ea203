import type net from 'node:net';
import type { Logger } from 'pino';
import { isStorageFull } from '../pipeline/storage-full.ts';
import { diskFullMessage, type IngestAccount, type IngestBackend, type IngestProtocol } from './backend.ts';
import { DataConnectionError, endData, openDataConnection } from './ftp-data.ts';
import type { IngestFileSystem } from './ftp-filesystem.ts';
import type { FtpSrvConnection } from './ftp-srv-internals.ts';
import { UploadSink, UploadTooLargeError } from './upload-sink.ts';
import { PathError } from './virtual-path.ts';

/**
 * Our STOR, replacing ftp-srv's: its own handler answers 550 to every failure (no 552 for the
 * size limit), pauses the command connection during the transfer (so ABOR and a vanished
 * client go unseen) and cannot tell a finished upload from an aborted one.
 *
 * Rules: the upload counts only when the data connection ends cleanly (FIN, no error), no
 * ABOR came, and the command connection is still there a moment later (a killed client
 * closes both at once; the data FIN may be seen first). Then the backend stores and records
 * it and only then the client gets 226.
 */

export interface UploadContext {
  conn: FtpSrvConnection;
  fs: IngestFileSystem;
  backend: IngestBackend;
  account: IngestAccount;
  protocol: IngestProtocol;
  remoteAddress: string;
  maxUploadBytes: number;
  /** Data connection silent this long = aborted. */
  dataIdleMs: number;
  /** Wait after the data FIN for a closing command connection. */
  settleMs: number;
  controlClosed(): boolean;
  log: Logger;
  logInfo(text: string): void;
  logError(text: string): void;
}

/** The transfer in progress on a connection; ABOR and a closing command connection call `abort`. */
export interface ActiveUpload {
  abort(reason: string): void;
  done: Promise<void>;
}

type Outcome = { ok: true } | { ok: false; code: number; message: string; log: string };

const aborted = (log: string): Outcome => ({
  ok: false,
  code: 426,
  message: 'Connection closed; transfer aborted',
  log,
});

export function startUpload(ctx: UploadContext, arg: string | null): ActiveUpload {
  let abortHook: (reason: string) => void = () => {};
  let pendingAbort: string | undefined;
  const done = runUpload(ctx, arg, (hook) => {
    abortHook = hook;
    if (pendingAbort) hook(pendingAbort);
  });
  return {
    abort(reason) {
      pendingAbort = reason;
      abortHook(reason);
    },
    done,
  };
}

async function runUpload(
  ctx: UploadContext,
  arg: string | null,
  setAbort: (hook: (reason: string) => void) => void,
) {
  const { conn } = ctx;
  let relativePath: string;
  try {
    relativePath = ctx.fs.resolve(arg);
    if (relativePath === '') throw new PathError('File name required');
  } catch (err) {
    await conn.reply(553, err instanceof PathError ? err.message : 'File name not allowed');
    endData(conn);
    return;
  }

  // A full data disk refuses before any data comes (issue 30): the camera keeps its file and retries.
  const refused = ctx.backend.uploadsRefused?.();
  if (refused) {
    ctx.logError(`upload of ${relativePath} refused: ${refused}`);
    await conn.reply(452, refused);
    endData(conn);
    return;
  }

  let socket: net.Socket;
  try {
    socket = await openDataConnection(conn, 'Ready to receive');
  } catch (err) {
    await conn.reply(425, err instanceof DataConnectionError ? err.message : 'No data connection');
    endData(conn);
    return;
  }

  try {
    const outcome = await receive(ctx, socket, relativePath, setAbort);
    if (outcome.ok) return;
    ctx.logError(outcome.log);
    await conn.reply(outcome.code, outcome.message);
  } finally {
    endData(conn);
  }
}

async function receive(
  ctx: UploadContext,
  socket: net.Socket,
  relativePath: string,
  setAbort: (hook: (reason: string) => void) => void,
): Promise<Outcome> {
  const { conn } = ctx;
  let settle: (outcome: Outcome | 'ended') => void = () => {};
  const transfer = new Promise<Outcome | 'ended'>((resolve) => {
    settle = resolve;
  });
  let finished = false;
  const end = (outcome: Outcome | 'ended') => {
    if (finished) return;
    finished = true;
    settle(outcome);
  };

  const sink = new UploadSink(
    (data) =>
      ctx.backend.storeUpload(ctx.account, relativePath, data, {
        protocol: ctx.protocol,
        remoteAddress: ctx.remoteAddress,
      }),
    ctx.maxUploadBytes,
    (err) => {
      ctx.log.error({ err, relativePath }, 'storeUpload failed during transfer');
      end(storeFailed(err));
    },
  );

  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => end(aborted('data connection timed out')), ctx.dataIdleMs);
  };

  socket.on('data', (chunk: Buffer) => {
    if (finished) return;
    armIdle();
    try {
      if (!sink.write(chunk)) {
        socket.pause();
        sink.onDrain(() => socket.resume());
      }
    } catch (err) {
      if (err instanceof UploadTooLargeError) {
        end({
          ok: false,
          code: 552,
          message: `Exceeded storage allocation (limit ${err.maxBytes} bytes)`,
          log: err.message,
        });
      } else {
        end(aborted(err instanceof Error ? err.message : String(err)));
      }
    }
  });
  socket.once('end', () => end('ended'));
  socket.once('error', (err) => end(aborted(`data connection error: ${err.message}`)));
  socket.once('close', () => end(aborted('data connection closed without end of file')));
  let lateAbort: string | undefined;
  setAbort((reason) => {
    lateAbort = reason;
    end(aborted(reason));
  });

  if (ctx.controlClosed()) end(aborted('command connection closed'));
  armIdle();
  socket.resume();

  let outcome = await transfer;
  clearTimeout(idle);
  if (outcome === 'ended') {
    // A killed client closes both connections and the data FIN may come first: wait a moment
    // for an ABOR or the command connection's close before counting the upload.
    await new Promise((resolve) => setTimeout(resolve, ctx.settleMs));
    if (lateAbort) outcome = aborted(lateAbort);
    else if (ctx.controlClosed()) outcome = aborted('command connection closed during the transfer');
  }

  if (outcome !== 'ended') {
    sink.abort(new Error(outcome.ok ? 'aborted' : outcome.log));
    socket.destroy();
    return outcome;
  }

  try {
    const stored = await sink.finish();
    if (stored.stored) ctx.logInfo(`stored ${relativePath} (${stored.bytes} bytes)`);
    else ctx.logInfo(`empty file ${relativePath} ignored`);
    await conn.reply(226, stored.stored ? `Transfer complete (${stored.bytes} bytes)` : 'Empty file ignored');
    return { ok: true };
  } catch (err) {
    ctx.log.error({ err, relativePath }, 'storeUpload failed');
    return storeFailed(err);
  }
}

/** 452 when the disk was full (RFC 959: insufficient storage space), else 451 (local error). */
function storeFailed(err: unknown): Outcome {
  const log = `store failed: ${err instanceof Error ? err.message : String(err)}`;
  if (isStorageFull(err)) return { ok: false, code: 452, message: diskFullMessage, log };
  return { ok: false, code: 451, message: 'Upload could not be stored; please try again', log };
}
