import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { chunkedStream, headSegments, readSample, sampleImages, sosOffset } from '../test/support.ts';
import { BufferSink } from './byte-stream.ts';
import { MetadataError } from './errors.ts';
import {
  EoiScanner,
  encodeSegment,
  isJpeg,
  type JpegMetadata,
  type MetadataBuilder,
  type MetadataLimits,
  readJpegHead,
  rewriteJpeg,
  XMP_HEADER,
} from './jpeg.ts';
import { stampJpeg } from './stamp.ts';
import { readJpegXmp, xmpSegments } from './xmp-jpeg.ts';
import { emptyPacket, getProperty, XMP_NOTE_NS } from './xmp-model.ts';

const keep = (): Buffer[] => [];

async function rewrite(
  input: Buffer,
  chunkSize = 65536,
  build: MetadataBuilder = keep,
  limits?: MetadataLimits,
) {
  const sink = new BufferSink();
  const meta = await rewriteJpeg(chunkedStream(input, chunkSize), sink, build, limits);
  return { output: sink.toBuffer(), meta };
}

function refusal(code: string, pattern?: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof MetadataError, `expected MetadataError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}

const isMetadata = (segment: { marker: number; payload: Buffer }): boolean =>
  (segment.marker === 0xe1 && segment.payload.subarray(0, 4).toString() === 'http') ||
  (segment.marker === 0xed && segment.payload.subarray(0, 9).toString() === 'Photoshop');

/** SOI, one APP0, DQT, SOF0, DHT, SOS, scan bytes, EOI: enough structure for the reader. */
function tinyJpeg(extraBeforeSos: Buffer[] = [], scan = Buffer.from([1, 2, 3, 0xff, 0x00, 4])): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    encodeSegment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    encodeSegment(0xdb, Buffer.alloc(65, 1)),
    encodeSegment(0xc0, Buffer.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0])),
    ...extraBeforeSos,
    encodeSegment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}

describe('JPEG segments', () => {
  it('recognises JPEG by its first bytes', () => {
    assert.equal(isJpeg(readSample('exiv2-empty.jpg').subarray(0, 3)), true);
    assert.equal(isJpeg(Buffer.from('\x89PNG\r\n', 'latin1')), false);
    assert.equal(isJpeg(Buffer.from([0xff, 0xd8])), false);
  });

  it('copies every other segment and the image data byte for byte, whatever the chunk size', async () => {
    for (const name of sampleImages()) {
      const input = readSample(name);
      const { output } = await rewrite(input);
      const expectedHead = headSegments(input).filter((segment) => !isMetadata(segment));
      assert.deepEqual(headSegments(output), expectedHead, name);
      assert.deepEqual(
        output.subarray(sosOffset(output)),
        input.subarray(sosOffset(input)),
        `${name} image data`,
      );
      // Byte by byte only for the small files: a Readable of single bytes is slow in itself.
      for (const chunkSize of input.length < 12_000 ? [1, 7, 4096] : [7, 4096]) {
        assert.deepEqual(
          (await rewrite(input, chunkSize)).output,
          output,
          `${name} in chunks of ${chunkSize}`,
        );
      }
    }
  });

  it('collects Exif, XMP and Photoshop segments', async () => {
    const meta = await readJpegHead([readSample('exiv2-Reagan.jpg')]);
    assert.ok(meta.exif?.subarray(0, 4).equals(Buffer.from('Exif')));
    assert.ok(meta.xmp?.toString('utf8').includes('x:xmpmeta'));
    assert.equal(meta.photoshop?.length, 3038 - 2 - 14); // APP13 length field minus itself and the header
  });

  it('inserts new metadata before the first table, after JFIF and Exif', async () => {
    const marker = encodeSegment(0xe1, Buffer.concat([XMP_HEADER, Buffer.from('<x/>')]));
    const { output } = await rewrite(readSample('exiv2-FurnaceCreekInn.jpg'), 65536, () => [marker]);
    assert.deepEqual(
      headSegments(output).map((segment) => segment.marker.toString(16)),
      ['e0', 'e1', 'e1', 'c0', 'c4', 'c4', 'c4', 'c4', 'db', 'db', 'dd'],
    );
    assert.ok(headSegments(output)[1]?.payload.subarray(0, 4).equals(Buffer.from('Exif')));
    assert.ok(headSegments(output)[2]?.payload.equals(marker.subarray(4)));
  });

  it('finds metadata that follows the tables and still writes the new metadata once, before them', async () => {
    const lateXmp = encodeSegment(0xe1, Buffer.concat([XMP_HEADER, Buffer.from('<late/>')]));
    const input = tinyJpeg([lateXmp]);
    let seen: JpegMetadata | undefined;
    const { output } = await rewrite(input, 3, (meta) => {
      seen = meta;
      return [encodeSegment(0xfe, Buffer.from('new'))];
    });
    assert.equal(seen?.xmp?.toString(), '<late/>');
    assert.deepEqual(
      headSegments(output).map((segment) => segment.marker.toString(16)),
      ['e0', 'fe', 'db', 'c0'],
    );
  });

  it('bounds what it holds back: past the limit the metadata is written and late metadata dropped', async () => {
    const comments = Array.from({ length: 20 }, () => encodeSegment(0xfe, Buffer.alloc(1000, 0x41)));
    const lateXmp = encodeSegment(0xe1, Buffer.concat([XMP_HEADER, Buffer.from('<late/>')]));
    const input = tinyJpeg([...comments, lateXmp]);
    const limits = { maxExtendedXmpBytes: 1 << 20, maxPhotoshopBytes: 1 << 20, maxHeldBytes: 5000 };
    const { output, meta } = await rewrite(
      input,
      64,
      () => [encodeSegment(0xfe, Buffer.from('new'))],
      limits,
    );
    assert.equal(headSegments(output).filter((segment) => segment.payload.toString() === 'new').length, 1);
    assert.equal(
      headSegments(output).filter((segment) => segment.payload.toString().includes('late')).length,
      0,
    );
    assert.match(meta.warnings.join(), /dropped/);
  });

  it('refuses input that is not a usable JPEG with a typed error', async () => {
    const sample = readSample('exiftool-GPS.jpg');
    const sos = sosOffset(sample);
    const cases: Array<[Buffer, string, RegExp]> = [
      [Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), 'NOT_JPEG', /not a JPEG/],
      [Buffer.alloc(0), 'NOT_JPEG', /not a JPEG/],
      [sample.subarray(0, 100), 'TRUNCATED', /file ends inside segment 0xe1 at offset 2/],
      [sample.subarray(0, sos + 6), 'TRUNCATED', /segment 0xda/],
      [
        Buffer.concat([sample.subarray(0, 2), Buffer.from([0xff, 0xe1, 0x00, 0x01])]),
        'BAD_SEGMENT',
        /length 1/,
      ],
      [
        Buffer.concat([sample.subarray(0, 2), Buffer.from([0x12, 0x34])]),
        'TRUNCATED',
        /file ends inside a marker/,
      ],
      [
        Buffer.concat([sample.subarray(0, 2), Buffer.from([0xff, 0xd9])]),
        'TRUNCATED',
        /before any image data/,
      ],
      [
        Buffer.concat([sample.subarray(0, 2), Buffer.from([0xff, 0xe1, 0xff, 0xff]), Buffer.alloc(100)]),
        'TRUNCATED',
        /length 65535/,
      ],
    ];
    for (const [input, code, message] of cases) {
      await assert.rejects(rewrite(input), refusal(code, message), message.source);
    }
  });
});

describe('EOI detection', () => {
  const feed = (...chunks: number[][]): boolean => {
    const scanner = new EoiScanner();
    for (const chunk of chunks) scanner.feed(Buffer.from(chunk));
    return scanner.found;
  };

  it('finds EOI across chunk boundaries and after fill bytes', () => {
    assert.equal(feed([1, 2, 0xff], [0xd9]), true);
    assert.equal(feed([1, 0xff, 0xff, 0xff, 0xd9]), true);
  });

  it('ignores stuffed bytes, restart markers and bytes inside segments between progressive scans', () => {
    assert.equal(feed([0xff, 0x00, 0xff, 0xd0, 0xff, 0xd7, 1]), false);
    // A DHT (FF C4, length 6) whose table bytes contain FF D9, then a real EOI.
    assert.equal(feed([1, 0xff, 0xc4, 0x00, 0x06, 0xff, 0xd9, 0xff, 0xd9]), false);
    assert.equal(feed([1, 0xff, 0xc4, 0x00, 0x06, 0xff, 0xd9, 0xff, 0xd9], [0xff, 0xd9]), true);
    assert.equal(feed([0xff, 0xda, 0x00], [0x04, 0x01, 0x02, 0x33, 0xff, 0xd9]), true);
  });
});

describe('extended XMP', () => {
  it('splits a large packet into standard plus extended XMP and reads it back whole', async () => {
    const packet = emptyPacket();
    packet.properties.push(
      {
        ns: 'http://ns.adobe.com/photoshop/1.0/',
        name: 'Headline',
        node: { kind: 'simple', value: 'Kept in the main packet' },
      },
      { ns: 'urn:big:', name: 'History', node: { kind: 'simple', value: 'x'.repeat(150_000) } },
      { ns: 'urn:big:', name: 'Other', node: { kind: 'simple', value: 'y'.repeat(30_000) } },
    );
    const segments = xmpSegments(packet);
    assert.ok(segments.length >= 4);
    assert.ok(segments.every((segment) => segment.length <= 65537));
    const file = Buffer.concat([Buffer.from([0xff, 0xd8]), ...segments, tinyJpeg().subarray(2)]);
    const meta = await readJpegHead([file]);
    assert.ok(meta.xmp?.toString().includes('Kept in the main packet'));
    const warnings: string[] = [];
    const back = readJpegXmp(meta, warnings);
    assert.deepEqual(warnings, []);
    assert.equal(getProperty(back ?? emptyPacket(), XMP_NOTE_NS, 'HasExtendedXMP'), undefined);
    assert.deepEqual(back?.properties.map((field) => field.name).sort(), ['Headline', 'History', 'Other']);
    assert.equal(back?.properties.find((field) => field.name === 'History')?.node.kind, 'simple');
  });

  it('warns about extended XMP that is missing or incomplete and keeps the standard part', async () => {
    const packet = emptyPacket();
    packet.properties.push({
      ns: 'urn:big:',
      name: 'History',
      node: { kind: 'simple', value: 'x'.repeat(150_000) },
    });
    const segments = xmpSegments(packet);
    const file = Buffer.concat([Buffer.from([0xff, 0xd8]), ...segments.slice(0, 2), tinyJpeg().subarray(2)]);
    const warnings: string[] = [];
    const back = readJpegXmp(await readJpegHead([file]), warnings);
    assert.match(warnings.join(), /incomplete/);
    assert.deepEqual(back?.properties, []);
  });

  it('refuses more extended XMP than the limit instead of buffering it', async () => {
    const packet = emptyPacket();
    packet.properties.push({
      ns: 'urn:big:',
      name: 'History',
      node: { kind: 'simple', value: 'x'.repeat(300_000) },
    });
    const file = Buffer.concat([Buffer.from([0xff, 0xd8]), ...xmpSegments(packet), tinyJpeg().subarray(2)]);
    const limits = { maxExtendedXmpBytes: 100_000, maxPhotoshopBytes: 1 << 20, maxHeldBytes: 1 << 20 };
    await assert.rejects(readJpegHead([file], limits), refusal('METADATA_TOO_LARGE'));
  });
});

describe('streaming', () => {
  it('stamps a 96 MB file with memory that does not grow with its size', async () => {
    const sample = readSample('exiftool-GPS.jpg');
    const head = sample.subarray(0, sosOffset(sample) + 14); // up to and including the SOS header
    const block = Buffer.alloc(1 << 16, 0x55); // scan-like bytes without markers
    const blocks = 1536;
    async function* source(): AsyncGenerator<Buffer> {
      yield head;
      for (let i = 0; i < blocks; i++) yield Buffer.from(block);
      yield Buffer.from([0xff, 0xd9]);
    }
    let written = 0;
    let peak = 0;
    const base = process.memoryUsage();
    const sink = new Writable({
      highWaterMark: 1 << 16,
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (written % (1 << 22) < chunk.length) {
          const now = process.memoryUsage();
          peak = Math.max(peak, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers);
        }
        callback();
      },
    });
    await stampJpeg(source(), sink, {
      modes: { headline: 'replace' },
      values: [{ propertytypeids: 'headline', value: 'x' }],
    });
    assert.ok(written > blocks * block.length);
    assert.ok(peak < 48 * 1024 * 1024, `memory grew by ${Math.round(peak / 1048576)} MB`);
  });

  const headlineTemplate = {
    modes: { headline: 'replace' as const },
    values: [{ propertytypeids: 'headline', value: 'x' }],
  };

  it('waits for a slow output (backpressure) and still writes every byte', async () => {
    const input = readSample('exiv2-Reagan.jpg');
    const parts: Buffer[] = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        parts.push(chunk);
        setImmediate(callback);
      },
    });
    await stampJpeg(chunkedStream(input, 512), slow, headlineTemplate);
    const output = Buffer.concat(parts);
    assert.deepEqual(output.subarray(sosOffset(output)), input.subarray(sosOffset(input)));
  });

  it('rejects, without hanging, when the output fails or the input breaks off', async () => {
    const input = readSample('exiv2-Reagan.jpg');
    let written = 0;
    const failing = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        callback(written > 20_000 ? new Error('disk full') : null);
      },
    });
    await assert.rejects(stampJpeg(chunkedStream(input, 4096), failing, headlineTemplate), /disk full/);

    async function* breaking(): AsyncGenerator<Buffer> {
      yield input.subarray(0, 30_000);
      throw new Error('connection reset');
    }
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await assert.rejects(stampJpeg(breaking(), sink, headlineTemplate), /connection reset/);
    assert.equal(sink.destroyed, true);
  });
});
