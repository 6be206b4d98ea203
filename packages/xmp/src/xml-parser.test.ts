import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetadataError } from './errors.ts';
import { childElements, decodeEntities, parseXml, textContent } from './xml-parser.ts';

function refusal(code: string, pattern?: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof MetadataError, `expected MetadataError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}

describe('xml parser', () => {
  it('parses elements, attributes, namespaces and text', () => {
    const { root, processingInstructions } = parseXml(
      `<?xpacket begin="" id="x"?><a:root xmlns:a="urn:a" xmlns="urn:default" a:x='1' y="2"><child>t&amp;x</child><!-- c --><a:e/></a:root>`,
    );
    assert.equal(root.ns, 'urn:a');
    assert.equal(root.local, 'root');
    assert.deepEqual(
      root.attributes
        .filter((attr) => !attr.qname.startsWith('xmlns'))
        .map((attr) => [attr.ns, attr.local, attr.value]),
      [
        ['urn:a', 'x', '1'],
        ['', 'y', '2'],
      ],
    );
    const [child, empty] = childElements(root);
    assert.equal(child?.ns, 'urn:default');
    assert.equal(child && textContent(child), 't&x');
    assert.equal(empty?.ns, 'urn:a');
    assert.deepEqual(processingInstructions, [{ target: 'xpacket', data: 'begin="" id="x"' }]);
  });

  it('decodes character references and CDATA, and normalises line ends', () => {
    const { root } = parseXml('<r a="x&#10;y\tz">&#x1F600;&lt;<![CDATA[<b>&amp;</b>]]>\r\nend</r>');
    assert.equal(textContent(root), '😀<<b>&amp;</b>\nend');
    assert.equal(root.attributes[0]?.value, 'x\ny z');
    assert.equal(decodeEntities('&quot;&apos;&gt;'), `"'>`);
  });

  it('leaves out whitespace around child elements only when asked to, and keeps everything else', () => {
    const xml = '<r>\n  <a> x </a>\n  <b/>\t\n<c>  </c> tail <d/> \n</r>';
    const kinds = (root: ReturnType<typeof parseXml>['root']) =>
      root.children.map((child) => (child.kind === 'text' ? JSON.stringify(child.value) : child.local));
    assert.deepEqual(kinds(parseXml(xml).root), [
      '"\\n  "',
      'a',
      '"\\n  "',
      'b',
      '"\\t\\n"',
      'c',
      '" tail "',
      'd',
      '" \\n"',
    ]);
    const { root } = parseXml(xml, { skipIgnorableWhitespace: true });
    // Text that is more than whitespace stays, and so does whitespace that is all an element holds.
    assert.deepEqual(kinds(root), ['a', 'b', 'c', '" tail "', 'd']);
    const [a, , c] = childElements(root);
    assert.equal(a && textContent(a), ' x ');
    assert.equal(c && textContent(c), '  ');
  });

  it('joins text split by comments and CDATA into one node, and tells text after an element from text after text', () => {
    const xml = '<r>a<!--c-->b<![CDATA[<c>]]><e/> <!--x--> <?p q?> <f>  </f>g<!--y--> </r>';
    const kinds = (root: ReturnType<typeof parseXml>['root']) =>
      root.children.map((child) => (child.kind === 'text' ? JSON.stringify(child.value) : child.local));
    assert.deepEqual(kinds(parseXml(xml).root), ['"ab<c>"', 'e', '"   "', 'f', '"g "']);
    // Whitespace after an element is left out even with a comment or instruction between; the
    // whitespace after the text 'g' is kept with it.
    assert.deepEqual(kinds(parseXml(xml, { skipIgnorableWhitespace: true }).root), [
      '"ab<c>"',
      'e',
      'f',
      '"g "',
    ]);
  });

  it('gives the first prefix declared for each namespace, in document order', () => {
    const { prefixes } = parseXml(
      '<a xmlns="urn:d" xmlns:p="urn:1"><b xmlns:q="urn:1" xmlns:r="urn:2"/><p:c xmlns:s="urn:3"/></a>',
    );
    assert.deepEqual(
      [...prefixes],
      [
        ['urn:1', 'p'],
        ['urn:2', 'r'],
        ['urn:3', 's'],
      ],
    );
  });

  it('refuses DOCTYPE and ENTITY declarations (no entity expansion, no external entities)', () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><r>&lol2;</r>';
    assert.throws(() => parseXml(bomb), refusal('XML_DOCTYPE', /DOCTYPE/));
    assert.throws(() => parseXml('<r><!ENTITY x SYSTEM "file:///etc/passwd"></r>'), refusal('XML_DOCTYPE'));
    assert.throws(() => parseXml('<!doctype r><r/>'), refusal('XML_DOCTYPE'));
  });

  it('refuses malformed documents with a position', () => {
    const cases: Array<[string, RegExp]> = [
      ['<a><b></a>', /does not match/],
      ['<a>', /not closed/],
      ['<a x="1" x="2"/>', /duplicate attribute/],
      ['<p:a/>', /undeclared namespace prefix p/],
      ['<a>&unknown;</a>', /unknown entity/],
      ['<a>&#0;</a>', /invalid character reference/],
      ['<a>&amp</a>', /unterminated entity/],
      ['<a b=c/>', /must be quoted/],
      ['<a/>text', /outside the root/],
      ['<a/><b/>', /after the root/],
      ['', /no root element/],
      ['<a b="<"/>', /'<' in value/],
      ['<a><!-- x</a>', /unterminated comment/],
      ['<a:b:c xmlns:a="u"/>', /malformed name/],
    ];
    for (const [xml, message] of cases)
      assert.throws(() => parseXml(xml), refusal('INVALID_XML', message), xml);
  });

  it('limits nesting depth instead of overflowing the stack', () => {
    const deep = `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`;
    assert.throws(() => parseXml(deep), refusal('INVALID_XML', /deeper than/));
    assert.doesNotThrow(() => parseXml(`${'<a>'.repeat(200)}${'</a>'.repeat(200)}`));
  });

  it('stays linear on large flat input', () => {
    const many = `<r>${'<i a="1">x</i>'.repeat(200_000)}</r>`;
    const started = performance.now();
    assert.equal(childElements(parseXml(many).root).length, 200_000);
    assert.ok(performance.now() - started < 5000);
  });
});
