// Issue 15 item 6: deep nesting follows one rule in the standard packet and in extended XMP:
// the packet that nests deeper than the parser allows is dropped with the same warning, and
// everything else in the file is read (the template then rebuilds what was lost).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { EXTENDED_XMP_HEADER, readJpegHead, XMP_HEADER } from './jpeg.ts';
import { encodeSegment } from './jpeg-segments.ts';
import { withSegments } from './test-support.ts';
import { readJpegXmp } from './xmp-jpeg.ts';
import { getProperty } from './xmp-model.ts';

const PS = 'http://ns.adobe.com/photoshop/1.0/';

function packetXml(body: string, attributes = ''): string {
  return `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photoshop="${PS}" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmlns:t="urn:test:" ${attributes}>${body}</rdf:Description></rdf:RDF></x:xmpmeta>`;
}

/** A struct property nested `depth` levels deep. */
const deep = (depth: number): string =>
  `<t:deep rdf:parseType="Resource">${'<t:n rdf:parseType="Resource">'.repeat(depth)}<t:v>x</t:v>${'</t:n>'.repeat(depth)}</t:deep>`;

const standard = (xml: string): Buffer => encodeSegment(0xe1, Buffer.concat([XMP_HEADER, Buffer.from(xml)]));

function extended(xml: string): { guid: string; segment: Buffer } {
  const bytes = Buffer.from(xml);
  const guid = createHash('md5').update(bytes).digest('hex').toUpperCase();
  const header = Buffer.alloc(40);
  header.write(guid, 0, 'latin1');
  header.writeUInt32BE(bytes.length, 32);
  header.writeUInt32BE(0, 36);
  return { guid, segment: encodeSegment(0xe1, Buffer.concat([EXTENDED_XMP_HEADER, header, bytes])) };
}

async function read(segments: Buffer[]) {
  const warnings: string[] = [];
  const packet = readJpegXmp(await readJpegHead([withSegments(segments)]), warnings);
  return { packet, warnings };
}

describe('deep nesting: one rule for standard and extended XMP', () => {
  it('nesting within the limit is read in both', async () => {
    const ext = extended(packetXml(deep(100)));
    const { packet, warnings } = await read([
      standard(packetXml('<photoshop:City>Berlin</photoshop:City>', `xmpNote:HasExtendedXMP="${ext.guid}"`)),
      ext.segment,
    ]);
    assert.deepEqual(warnings, []);
    assert.ok(packet);
    assert.equal(getProperty(packet, 'urn:test:', 'deep')?.kind, 'struct');
    assert.deepEqual(getProperty(packet, PS, 'City'), { kind: 'simple', value: 'Berlin' });
  });

  it('a standard packet nested too deep is dropped with a warning', async () => {
    const { packet, warnings } = await read([
      standard(packetXml(`<photoshop:City>Berlin</photoshop:City>${deep(400)}`)),
    ]);
    assert.equal(packet, undefined);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0] ?? '',
      /^the XMP packet could not be read \(XML nested deeper than \d+ levels\) and was dropped/,
    );
  });

  it('extended XMP nested too deep is dropped with the same warning; the standard packet is kept', async () => {
    const ext = extended(packetXml(`<photoshop:Country>DE</photoshop:Country>${deep(400)}`));
    const { packet, warnings } = await read([
      standard(packetXml('<photoshop:City>Berlin</photoshop:City>', `xmpNote:HasExtendedXMP="${ext.guid}"`)),
      ext.segment,
    ]);
    assert.ok(packet);
    assert.deepEqual(getProperty(packet, PS, 'City'), { kind: 'simple', value: 'Berlin' });
    assert.equal(getProperty(packet, PS, 'Country'), undefined);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0] ?? '',
      /^extended XMP could not be read \(XML nested deeper than \d+ levels\) and was dropped/,
    );
  });
});
