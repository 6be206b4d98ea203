// stampBlob with the real blob store: a stamped blob is its new head spliced onto the received
// file's image data (no copy), and a stamped blob stamped again (the event step, a script, a copy
// delivered to another project) reads only its head and links the same image data again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { readJpegMetadata, stampJpegFile, type Template } from '@photorelay/xmp/index';
import { type BlobStore, createLocalBlobStore } from '../../adapters/storage/blob-store.ts';
import type { AppContext } from '../../context.ts';
import { stampBlob } from './stamping.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-stamping-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const blobs = createLocalBlobStore(path.join(root, 'files'));
const ctx = { blobs, config: { STAMP_TIME_LIMIT_MS: 30_000 } } as unknown as AppContext;
const images = path.resolve(import.meta.dirname, '../../../../../../shared/data/images');

const template = (caption: string, credit: string): Template => ({
  modes: { description: 'replace', creditLine: 'replace' },
  values: [
    { propertytypeids: 'description', value: caption },
    { propertytypeids: 'creditLine', value: credit },
  ],
});

const bytesOf = async (store: BlobStore, key: string) => {
  const chunks: Buffer[] = [];
  for await (const chunk of store.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const dataInode = (key: string) =>
  blobs.withLocalParts(key, async (parts) => fs.statSync((parts.at(-1) as { file: string }).file).ino);

/** What stampJpegFile (the whole file written) makes of these bytes. */
async function reference(input: Buffer, t: Template): Promise<Buffer> {
  const [from, to] = [path.join(root, 'ref-in.jpg'), path.join(root, 'ref-out.jpg')];
  fs.writeFileSync(from, input);
  await stampJpegFile(from, to, t, { filename: 'IMG_1.JPG' });
  return fs.readFileSync(to);
}

for (const [name, trailer] of [
  ['IPTC-PhotometadataRef-Std2025.1.jpg', ''],
  ['exiv2-Reagan.jpg', ''],
  ['exiv2-FurnaceCreekInn.jpg', 'TRAILER'], // not ending in EOI: stamped again from a whole copy
] as const) {
  test(`${name}${trailer ? ' with a trailer' : ''}: stamped, stamped again, each the bytes stampJpegFile writes; the received file is linked, not copied`, async () => {
    const received = Buffer.concat([fs.readFileSync(path.join(images, name)), Buffer.from(trailer)]);
    const source = await blobs.write(Readable.from([received]));
    const first = await stampBlob(ctx, source.key, template('Caption one', 'Agency one'), {
      filename: 'IMG_1.JPG',
    });
    const firstBytes = await bytesOf(blobs, first.blobKey);
    assert.ok(firstBytes.equals(await reference(received, template('Caption one', 'Agency one'))));
    assert.equal(first.size, firstBytes.length);
    assert.equal(
      await dataInode(first.blobKey),
      await dataInode(source.key),
      'the image data is the received file',
    );

    const second = await stampBlob(ctx, first.blobKey, template('Caption two', 'Agency two'), {
      filename: 'IMG_1.JPG',
    });
    const secondBytes = await bytesOf(blobs, second.blobKey);
    assert.ok(secondBytes.equals(await reference(firstBytes, template('Caption two', 'Agency two'))));
    assert.equal(second.size, secondBytes.length);
    assert.equal(
      (await dataInode(second.blobKey)) === (await dataInode(source.key)),
      trailer === '',
      'stamped again from its head alone when its image data ends in EOI',
    );
    const read = await readJpegMetadata(Readable.from([secondBytes]));
    assert.equal(read.values.find((v) => v.propertytypeids === 'creditLine')?.value, 'Agency two');
    // Every blob stands on its own: removing the received file and the first stamp loses nothing.
    await blobs.remove(source.key);
    await blobs.remove(first.blobKey);
    assert.ok((await bytesOf(blobs, second.blobKey)).equals(secondBytes));
    await blobs.remove(second.blobKey);
    assert.deepEqual(fs.readdirSync(path.join(root, 'files', 'tmp')), []);
  });
}

test('a file the engine refuses keeps nothing and leaves the source as it was', async () => {
  const received = fs.readFileSync(path.join(images, 'exiftool-XMP.jpg')).subarray(0, 500);
  const source = await blobs.write(Readable.from([received]));
  const count = () => (fs.readdirSync(path.join(root, 'files'), { recursive: true }) as string[]).length;
  const before = count();
  await assert.rejects(stampBlob(ctx, source.key, template('x', 'y'), {}), /TRUNCATED|ends inside/);
  assert.equal(count(), before);
  assert.ok((await bytesOf(blobs, source.key)).equals(received));
});

test('a FotoStation trailer holding IIM: the stamped blob is what stampJpegFile writes, the trailer with the new credit (issue 26)', async () => {
  const iim = Buffer.concat([Buffer.from([0x1c, 2, 110, 0, 12]), Buffer.from('Old agency 1', 'latin1')]);
  const footer = Buffer.alloc(10);
  footer.writeUInt16BE(1, 0); // the IPTC record
  footer.writeUInt32BE(iim.length + 10, 2);
  footer.writeUInt32BE(0xa1b2c3d4, 6);
  const received = Buffer.concat([fs.readFileSync(path.join(images, 'exiv2-Reagan.jpg')), iim, footer]);
  const source = await blobs.write(Readable.from([received]));
  const stamped = await stampBlob(ctx, source.key, template('Caption one', 'Agency one'), {
    filename: 'IMG_1.JPG',
  });
  const bytes = await bytesOf(blobs, stamped.blobKey);
  assert.ok(bytes.equals(await reference(received, template('Caption one', 'Agency one'))));
  assert.equal(stamped.size, bytes.length);
  const trailer = bytes.subarray(bytes.length - 10 - iim.length);
  assert.equal(trailer.readUInt32BE(trailer.length - 4), 0xa1b2c3d4, 'the trailer ends the file');
  assert.ok(!bytes.includes(Buffer.from('Old agency 1')), 'no copy of the old credit is left');
  assert.ok(
    bytes.subarray(bytes.length - 2000).includes(Buffer.from('Agency one')),
    'the trailer has the new credit',
  );
  await blobs.remove(source.key);
  await blobs.remove(stamped.blobKey);
});
