import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readSample, sampleImages, sharedData } from '../test/support.ts';
import { MetadataError } from './errors.ts';
import { readJpegHead } from './jpeg.ts';
import { sanitizeXmlText } from './xml-parser.ts';
import type { XmpField, XmpPacket } from './xmp-model.ts';
import { decodeXmpBytes, decodeXmpForParsing, parseXmpPacket } from './xmp-packet.ts';
import { serializeXmpPacket, serializeXmpPacketBytes } from './xmp-serialize.ts';

const RDF = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"';
const PS = 'xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"';
const DC = 'xmlns:dc="http://purl.org/dc/elements/1.1/"';
const CORE = 'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/';

const canonical = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ${RDF}>
<rdf:Description rdf:about="" ${PS} ${DC} xmlns:Iptc4xmpCore="${CORE}">
  <photoshop:City>Berlin</photoshop:City>
  <dc:subject><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></dc:subject>
  <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Cap</rdf:li><rdf:li xml:lang="de">Unterschrift</rdf:li></rdf:Alt></dc:description>
  <Iptc4xmpCore:CreatorContactInfo rdf:parseType="Resource">
    <Iptc4xmpCore:CiAdrCity>Hamburg</Iptc4xmpCore:CiAdrCity>
    <Iptc4xmpCore:CiEmailWork>a@b.de</Iptc4xmpCore:CiEmailWork>
  </Iptc4xmpCore:CreatorContactInfo>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;

/** Same data: attributes as properties, several descriptions, nested rdf:Description, other prefix. */
const attributeForm = `<rdf:RDF ${RDF}>
 <rdf:Description rdf:about="" ${PS} photoshop:City="Berlin"/>
 <rdf:Description rdf:about="" ${DC}>
  <dc:subject><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></dc:subject>
  <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Cap</rdf:li><rdf:li xml:lang="de">Unterschrift</rdf:li></rdf:Alt></dc:description>
 </rdf:Description>
 <rdf:Description rdf:about="" xmlns:I="${CORE}">
  <I:CreatorContactInfo><rdf:Description I:CiAdrCity="Hamburg"><I:CiEmailWork>a@b.de</I:CiEmailWork></rdf:Description></I:CreatorContactInfo>
 </rdf:Description>
</rdf:RDF>`;

/** Same data: structure as an empty element with attributes, value through rdf:value. */
const shorthandForm = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ${RDF}>
 <rdf:Description about="" ${PS} ${DC} xmlns:c="${CORE}">
  <photoshop:City rdf:parseType="Resource"><rdf:value>Berlin</rdf:value></photoshop:City>
  <dc:subject><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></dc:subject>
  <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Cap</rdf:li><rdf:li xml:lang="de">Unterschrift</rdf:li></rdf:Alt></dc:description>
  <c:CreatorContactInfo c:CiAdrCity="Hamburg" c:CiEmailWork="a@b.de"/>
 </rdf:Description></rdf:RDF></x:xmpmeta>`;

function sortedProperties(packet: XmpPacket): XmpField[] {
  return [...packet.properties].sort((a, b) => `${a.ns}${a.name}`.localeCompare(`${b.ns}${b.name}`));
}

function roundTrip(packet: XmpPacket): XmpPacket {
  return parseXmpPacket(serializeXmpPacket(packet));
}

function refusal(code: string) {
  return (error: unknown): boolean => error instanceof MetadataError && error.code === code;
}

describe('XMP packet', () => {
  it('reads every RDF form of the same data into the same model', () => {
    const expected = sortedProperties(parseXmpPacket(canonical));
    assert.equal(expected.length, 4);
    assert.deepEqual(sortedProperties(parseXmpPacket(attributeForm)), expected);
    assert.deepEqual(sortedProperties(parseXmpPacket(shorthandForm)), expected);
    const contact = expected.find((field) => field.name === 'CreatorContactInfo');
    assert.deepEqual(contact?.node, {
      kind: 'struct',
      fields: [
        { ns: CORE, name: 'CiAdrCity', node: { kind: 'simple', value: 'Hamburg' } },
        { ns: CORE, name: 'CiEmailWork', node: { kind: 'simple', value: 'a@b.de' } },
      ],
    });
  });

  it('keeps qualifiers, rdf:resource values and unknown namespaces through a round trip', () => {
    const xml = `<rdf:RDF ${RDF}><rdf:Description rdf:about="" ${DC} xmlns:ex="urn:example:" xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/">
      <dc:creator><rdf:Seq><rdf:li rdf:parseType="Resource"><rdf:value>Jane</rdf:value><ex:role>photographer</ex:role></rdf:li></rdf:Seq></dc:creator>
      <xmpRights:WebStatement rdf:resource="https://example.com/rights"/>
      <ex:Custom><rdf:Bag><rdf:li><rdf:Description ex:a="1"><ex:b><rdf:Seq><rdf:li xml:lang="de">x</rdf:li></rdf:Seq></ex:b></rdf:Description></rdf:li></rdf:Bag></ex:Custom>
      <ex:Empty/>
    </rdf:Description></rdf:RDF>`;
    const packet = parseXmpPacket(xml);
    const creator = packet.properties.find((field) => field.name === 'creator')?.node;
    assert.deepEqual(creator, {
      kind: 'array',
      form: 'Seq',
      items: [
        {
          kind: 'simple',
          value: 'Jane',
          qualifiers: [{ ns: 'urn:example:', name: 'role', node: { kind: 'simple', value: 'photographer' } }],
        },
      ],
    });
    assert.deepEqual(packet.properties.find((field) => field.name === 'WebStatement')?.node, {
      kind: 'simple',
      value: 'https://example.com/rights',
      isUri: true,
    });
    const again = roundTrip(packet);
    assert.deepEqual(again.properties, packet.properties);
    assert.equal(again.prefixes.get('urn:example:'), 'ex');
  });

  it('round-trips the reference packets and the XMP of every sample image without loss', async () => {
    const packets: Buffer[] = [
      'IPTC-PhotometadataRef-Std2025.1.extracted.xmp',
      'exiv2-StaffPhotographer-Example.xmp',
    ].map((name) => readFileSync(path.join(sharedData, 'xmp', name)));
    for (const name of sampleImages()) {
      const head = await readJpegHead([readSample(name)]);
      if (head.xmp) packets.push(head.xmp);
    }
    assert.ok(packets.length >= 9);
    for (const bytes of packets) {
      const packet = parseXmpPacket(bytes);
      assert.ok(packet.properties.length > 0);
      assert.deepEqual(roundTrip(packet).properties, packet.properties);
    }
  });

  it('reads UTF-16 packets (with or without byte order mark) and refuses invalid UTF-8', () => {
    const expected = parseXmpPacket(canonical).properties;
    const body = canonical.replace('\uFEFF', '');
    const be = Buffer.from(body, 'utf16le').swap16();
    assert.deepEqual(parseXmpPacket(be).properties, expected);
    assert.deepEqual(parseXmpPacket(Buffer.concat([Buffer.from([0xfe, 0xff]), be])).properties, expected);
    assert.deepEqual(parseXmpPacket(Buffer.from(body, 'utf16le')).properties, expected);
    assert.deepEqual(
      parseXmpPacket(Buffer.concat([Buffer.from(canonical), Buffer.alloc(10)])).properties,
      expected,
    );
    const broken = Buffer.concat([
      Buffer.from('<x:xmpmeta xmlns:x="adobe:ns:meta/">'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('</x:xmpmeta>'),
    ]);
    assert.throws(() => parseXmpPacket(broken), refusal('INVALID_UTF8'));
    assert.throws(() => decodeXmpBytes(Buffer.from([0x3c, 0xff, 0xfe, 0x3e])), refusal('INVALID_UTF8'));
  });

  it('refuses DOCTYPE and entity declarations and things that are not XMP', () => {
    assert.throws(() => parseXmpPacket(`<!DOCTYPE x [<!ENTITY a "b">]>${canonical}`), refusal('XML_DOCTYPE'));
    assert.throws(() => parseXmpPacket('<html><body/></html>'), refusal('INVALID_XMP'));
    assert.throws(
      () => parseXmpPacket(`<rdf:RDF ${RDF}><rdf:Description><p>x</p></rdf:Description></rdf:RDF>`),
      refusal('INVALID_XMP'),
    );
    assert.throws(
      () =>
        parseXmpPacket(
          `<rdf:RDF ${RDF}><rdf:Description ${DC}><dc:x>t<dc:y/></dc:x></rdf:Description></rdf:RDF>`,
        ),
      refusal('INVALID_XMP'),
    );
    // Text after a child element (the parser leaves out only whitespace there) is still mixed content.
    assert.throws(
      () =>
        parseXmpPacket(
          `<rdf:RDF ${RDF}><rdf:Description ${DC}><dc:x><dc:y/>\n t</dc:x></rdf:Description></rdf:RDF>`,
        ),
      (error: unknown) => refusal('INVALID_XMP')(error) && /mixes text and elements/.test(String(error)),
    );
    assert.deepEqual(parseXmpPacket('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>').properties, []);
  });

  it('keeps a value that is only whitespace, and indentation around structures is not a value', () => {
    const packet = parseXmpPacket(
      `<rdf:RDF ${RDF}>\n <rdf:Description ${DC} ${PS}>\n  <photoshop:City>  </photoshop:City>\n  <dc:x>\n   <dc:y>1</dc:y>\n  </dc:x>\n </rdf:Description>\n</rdf:RDF>`,
    );
    assert.deepEqual(
      packet.properties.map((field) => [field.name, field.node]),
      [
        ['City', { kind: 'simple', value: '  ' }],
        [
          'x',
          {
            kind: 'struct',
            fields: [
              { ns: 'http://purl.org/dc/elements/1.1/', name: 'y', node: { kind: 'simple', value: '1' } },
            ],
          },
        ],
      ],
    );
  });

  it('parses the byte order mark of <?xpacket begin?> as a space and writes it back as bytes', () => {
    // Read as it is, the mark would make the whole text a two-byte string (slower to parse).
    const single = canonical.replace('begin="', "begin='").replace('" id=', "' id=");
    for (const text of [canonical, single, `\uFEFF${canonical}`]) {
      const bytes = Buffer.from(text, 'utf8');
      const asFound = text.replace(/^\uFEFF/, '');
      assert.equal(decodeXmpBytes(bytes), asFound);
      assert.equal(decodeXmpForParsing(bytes), asFound.replace('\uFEFF', ' '));
      assert.deepEqual(parseXmpPacket(bytes), parseXmpPacket(text));
    }
    // Anywhere else the mark is text: in a value it is kept.
    const inValue = canonical.replace('Berlin', 'Ber\uFEFFlin');
    assert.ok(decodeXmpForParsing(Buffer.from(inValue, 'utf8')).includes('Ber\uFEFFlin'));
    const packet = parseXmpPacket(inValue);
    // Two-byte text (a dash, a surrogate pair, a lone surrogate the serializer replaces), and
    // one-byte text, ASCII or not: the bytes are encoded by TextEncoder, the same as V8's.
    packet.properties.push({
      ns: 'urn:one:',
      name: 'v',
      node: { kind: 'simple', value: 'Straße – 5 € \u{1F600} \uD800' },
    });
    const ascii = parseXmpPacket(canonical);
    const latin1 = parseXmpPacket(canonical.replace('Berlin', 'Köln'));
    const made: Array<[Buffer, Buffer]> = [];
    for (const each of [packet, ascii, latin1])
      for (const options of [{}, { padding: 0 }, { wrapper: false }]) {
        const bytes = serializeXmpPacketBytes(each, options);
        const expected = Buffer.from(serializeXmpPacket(each, options), 'utf8');
        assert.deepEqual(bytes, expected);
        made.push([bytes, expected]);
      }
    // Each result is its own copy: the buffer they are encoded in is used again.
    for (const [bytes, expected] of made) assert.deepEqual(bytes, expected);
  });

  it('writes a valid packet: wrapper, padding, escaping, distinct prefixes', () => {
    const packet = parseXmpPacket(canonical);
    packet.properties.push(
      { ns: 'urn:one:', name: 'v', node: { kind: 'simple', value: 'a<b>&"c"\r\nd\te\u0001f\uD800' } },
      { ns: 'urn:two:', name: 'v', node: { kind: 'simple', value: 'two' } },
    );
    packet.prefixes.set('urn:one:', 'p');
    packet.prefixes.set('urn:two:', 'p');
    const xml = serializeXmpPacket(packet);
    assert.ok(xml.startsWith('<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>'));
    assert.ok(xml.endsWith('<?xpacket end="w"?>'));
    const padding = /<\/x:xmpmeta>\n(\s*)<\?xpacket end/.exec(xml)?.[1] ?? '';
    assert.equal(padding.length, 2048);
    const back = parseXmpPacket(xml);
    const one = back.properties.find((field) => field.ns === 'urn:one:')?.node;
    assert.deepEqual(one, { kind: 'simple', value: 'a<b>&"c"\r\nd\tef\uFFFD' });
    assert.equal(back.properties.find((field) => field.ns === 'urn:two:')?.node.kind, 'simple');
    assert.notEqual(back.prefixes.get('urn:one:'), back.prefixes.get('urn:two:'));
    assert.equal(sanitizeXmlText('ok\u0000'), 'ok');
    assert.ok(!serializeXmpPacket(packet, { wrapper: false }).includes('xpacket'));
  });
});
