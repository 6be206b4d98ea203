import { Readable } from 'node:stream';

/**
 * The bridge from a protocol's incoming bytes to `IngestBackend.storeUpload`, shared by FTP
 * and SFTP so both keep the same rules:
 * - the backend is called on the first byte only, so zero-byte uploads never reach it;
 * - the size limit is checked before bytes are handed on;
 * - an abort destroys the stream with an error, which the backend must treat as "discard";
 * - `finish()` ends the stream and resolves only when the backend has stored and recorded it.
 */

export class UploadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Upload exceeds the size limit of ${maxBytes} bytes`);
  }
}

export class UploadAbortedError extends Error {}

export type StoreFn = (data: Readable) => Promise<{ bytes: number }>;

export class UploadSink {
  bytes = 0;
  private stream?: Readable;
  private result?: Promise<{ bytes: number }>;
  private state: 'open' | 'finishing' | 'done' | 'aborted' = 'open';
  private backendError?: Error;
  private drainListener?: () => void;

  /**
   * @param onBackendError called when the backend gives up before the upload ended, so the
   *   caller can stop receiving at once instead of filling a stream nobody reads.
   */
  constructor(
    private readonly store: StoreFn,
    private readonly maxBytes: number,
    private readonly onBackendError: (err: Error) => void = () => {},
  ) {}

  /** Hands on one chunk; false = the backend is behind, wait for `onDrain` before more. Throws UploadTooLargeError. */
  write(chunk: Buffer): boolean {
    if (this.state !== 'open') throw new UploadAbortedError('Upload is no longer open');
    if (this.backendError) throw this.backendError;
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      const err = new UploadTooLargeError(this.maxBytes);
      this.abort(err);
      throw err;
    }
    const stream = this.stream ?? this.open();
    return stream.push(chunk);
  }

  /** Called once when the backend wants more after `write` returned false. */
  onDrain(listener: () => void): void {
    this.drainListener = listener;
  }

  /** Ends the upload; resolves after the backend stored it. `stored` false = empty, nothing kept. */
  async finish(): Promise<{ bytes: number; stored: boolean }> {
    if (this.state !== 'open') throw new UploadAbortedError('Upload is no longer open');
    this.state = 'finishing';
    if (!this.stream || !this.result) {
      this.state = 'done';
      return { bytes: 0, stored: false };
    }
    this.stream.push(null);
    try {
      const { bytes } = await this.result;
      this.state = 'done';
      return { bytes, stored: true };
    } catch (err) {
      this.state = 'aborted';
      throw err;
    }
  }

  /** Discards the upload: the backend's stream errors, so nothing is recorded. Safe to call twice. */
  abort(reason: Error): void {
    if (this.state === 'done' || this.state === 'aborted') return;
    this.state = 'aborted';
    this.stream?.destroy(reason);
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  private open(): Readable {
    const stream = new Readable({
      highWaterMark: 1024 * 1024,
      read: () => {
        const listener = this.drainListener;
        this.drainListener = undefined;
        listener?.();
      },
    });
    this.stream = stream;
    this.result = this.store(stream);
    this.result.catch((err: unknown) => {
      const error = err instanceof Error ? err : new Error(String(err));
      if (this.state === 'open') {
        this.backendError = error;
        this.onBackendError(error);
      }
    });
    return stream;
  }
}
