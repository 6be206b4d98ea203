// Byte-level plumbing for streaming: a reader that hands out exact byte counts from an async
// iterable of chunks (a Node Readable is one) without copying when a chunk holds them, and a
// sink that writes to a Node Writable honouring backpressure.
import type { Writable } from 'node:stream';
import { MetadataError } from './errors.ts';

const EMPTY = Buffer.alloc(0);

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  // A string chunk means someone set an encoding on the stream: the bytes are already lost.
  throw new TypeError('image streams must deliver bytes, not strings (do not set an encoding)');
}

function toAsync(iterator: Iterator<unknown>): AsyncIterator<unknown> {
  return {
    next: async () => iterator.next(),
    return: async () => iterator.return?.() ?? { done: true, value: undefined },
  };
}

export class ChunkReader {
  private chunk: Buffer = EMPTY;
  private offset = 0;
  private ended = false;
  private readonly iterator: AsyncIterator<unknown>;
  /** Bytes handed out so far: the file offset of the next byte. */
  position = 0;

  constructor(source: AsyncIterable<unknown> | Iterable<unknown>) {
    this.iterator =
      Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync(source[Symbol.iterator]());
  }

  private async pull(): Promise<boolean> {
    while (!this.ended) {
      const next = await this.iterator.next();
      if (next.done) {
        this.ended = true;
        return false;
      }
      const buf = toBuffer(next.value);
      if (buf.length > 0) {
        this.chunk = buf;
        this.offset = 0;
        return true;
      }
    }
    return false;
  }

  /** Exactly n bytes, or undefined when the input ends first. Views into the input, not copies. */
  async read(n: number): Promise<Buffer | undefined> {
    if (this.chunk.length - this.offset >= n) {
      const out = this.chunk.subarray(this.offset, this.offset + n);
      this.offset += n;
      this.position += n;
      return out;
    }
    const parts: Buffer[] = [];
    let missing = n;
    while (missing > 0) {
      if (this.offset >= this.chunk.length && !(await this.pull())) return undefined;
      const take = Math.min(missing, this.chunk.length - this.offset);
      parts.push(this.chunk.subarray(this.offset, this.offset + take));
      this.offset += take;
      missing -= take;
    }
    this.position += n;
    return parts.length === 1 ? (parts[0] ?? EMPTY) : Buffer.concat(parts, n);
  }

  /** Like read, but a missing byte is a truncated file. */
  async readOrFail(n: number, what: string): Promise<Buffer> {
    const start = this.position;
    const out = await this.read(n);
    if (!out)
      throw new MetadataError('TRUNCATED', `file ends inside ${what} (offset ${start}, ${n} bytes needed)`);
    return out;
  }

  /**
   * The bytes before the next `byte` (which stays unread), at most `max` of them; fewer when
   * the input ends first. Scans chunks with indexOf, not byte by byte.
   */
  async readUntil(byte: number, max: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let taken = 0;
    while (taken < max) {
      if (this.offset >= this.chunk.length && !(await this.pull())) break;
      const found = this.chunk.indexOf(byte, this.offset);
      const end = Math.min(found < 0 ? this.chunk.length : found, this.offset + max - taken);
      parts.push(this.chunk.subarray(this.offset, end));
      taken += end - this.offset;
      this.position += end - this.offset;
      this.offset = end;
      if (found >= 0 && end === found) break;
    }
    return Buffer.concat(parts, taken);
  }

  /**
   * The next chunk of everything not read yet, as it arrives (undefined at the end). Used to
   * copy the image data: no copying, one await per chunk.
   */
  async nextChunk(): Promise<Buffer | undefined> {
    if (this.offset >= this.chunk.length && !(await this.pull())) return undefined;
    const out = this.offset === 0 ? this.chunk : this.chunk.subarray(this.offset);
    this.offset = this.chunk.length;
    this.position += out.length;
    return out;
  }

  /** Stops the source (destroys a Readable) when the caller needs no more bytes. */
  async close(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      await this.iterator.return?.();
    }
  }
}

export interface ByteSink {
  /** Returns a promise only when the caller must wait (backpressure), so hot loops avoid awaits. */
  write(bytes: Buffer): Promise<void> | undefined;
  /**
   * Takes the source from `position` (a file offset: the first byte of image data) to `end` (its
   * end when not given) as the rest of the output, without the bytes passing through here: a
   * kernel copy, or a note of where the image data starts (a head-only stamp). False when it
   * cannot (nothing was taken): the caller copies them itself. What is written after it (a
   * rewritten trailer) follows those bytes.
   */
  copyRest?(position: number, end?: number): boolean;
}

/** Writes to a Node Writable, waiting for 'drain' when its buffer is full. */
export class WritableSink implements ByteSink {
  private failure: Error | undefined;
  private readonly onError = (error: Error): void => {
    this.failure = error;
  };

  constructor(private readonly out: Writable) {
    out.on('error', this.onError);
  }

  write(bytes: Buffer): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.out.destroyed)
      return Promise.reject(new Error('output stream was closed before the image was written'));
    return this.out.write(bytes) ? undefined : this.waitForDrain();
  }

  private waitForDrain(): Promise<void> {
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        this.out.off('drain', onDrain);
        this.out.off('error', onError);
        this.out.off('close', onClose);
      };
      const onDrain = (): void => {
        cleanup();
        resolve();
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onClose = (): void => {
        cleanup();
        reject(this.failure ?? new Error('output stream closed while writing'));
      };
      this.out.on('drain', onDrain);
      this.out.on('error', onError);
      this.out.on('close', onClose);
    });
  }

  /** Ends the stream and resolves once everything is flushed. */
  end(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      this.out.once('error', reject);
      this.out.end(() => {
        this.out.off('error', reject);
        this.detach();
        resolve();
      });
    });
  }

  /** Gives up on the output after a failure: no half-written file is reported as done. */
  abort(): void {
    this.detach();
    // Keep a listener so an error emitted while destroying cannot crash the process.
    this.out.on('error', () => {});
    this.out.destroy();
  }

  private detach(): void {
    this.out.off('error', this.onError);
  }
}

/** Collects written bytes in memory (tests and small helpers). */
export class BufferSink implements ByteSink {
  private readonly parts: Buffer[] = [];

  write(bytes: Buffer): undefined {
    this.parts.push(Buffer.from(bytes));
    return undefined;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}
