// A small, strict XML parser for XMP packets: elements, attributes, namespaces, text, CDATA,
// comments and processing instructions. No DTDs: DOCTYPE and ENTITY declarations are refused,
// so entity expansion attacks and external entities cannot happen. Iterative (no recursion),
// with a depth limit, so hostile input cannot overflow the stack.
import { MetadataError } from './errors.ts';
import { decodeEntities, isNameChar, isWhitespace, nameEnd, sanitizeXmlText, xmlError } from './xml-chars.ts';

export interface XmlName {
  /** As written, e.g. 'rdf:li'. */
  qname: string;
  prefix: string;
  local: string;
  /** Namespace URI; '' for an unprefixed attribute or an element without a default namespace. */
  ns: string;
}

export interface XmlAttribute extends XmlName {
  value: string;
}

export interface XmlElement extends XmlName {
  kind: 'element';
  attributes: XmlAttribute[];
  children: XmlChild[];
}

export interface XmlText {
  kind: 'text';
  value: string;
}

export type XmlChild = XmlElement | XmlText;

export interface XmlProcessingInstruction {
  target: string;
  data: string;
}

export interface XmlDocument {
  root: XmlElement;
  processingInstructions: XmlProcessingInstruction[];
  /** Namespace URI -> the first prefix declared for it (xmlns:p="uri", in document order). */
  prefixes: Map<string, string>;
}

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const MAX_DEPTH = 256;
/** The attributes of every element that has none (frozen: shared, so nobody may add to it). */
export const NO_ATTRIBUTES = Object.freeze([]) as unknown as XmlAttribute[];

export { decodeEntities, sanitizeXmlText } from './xml-chars.ts';
export { childElements, textContent } from './xml-tree.ts';

interface OpenElement {
  element: XmlElement;
  scope: Map<string, string> | undefined;
}

class Parser {
  private pos = 0;
  private readonly stack: OpenElement[] = [];
  private readonly scopes: Array<Map<string, string>> = [new Map([['xml', XML_NS]])];
  private root: XmlElement | undefined;
  /** Whether the last child of the open element is an element (else text, or no child yet). */
  private lastIsElement = false;
  readonly processingInstructions: XmlProcessingInstruction[] = [];
  private readonly prefixes = new Map<string, string>();

  constructor(
    private readonly src: string,
    private readonly skipIgnorableWhitespace: boolean,
    private readonly namespaces: ReadonlyMap<string, string> | undefined,
  ) {}

  parse(): XmlDocument {
    const { src } = this;
    while (this.pos < src.length) {
      const lt = src.indexOf('<', this.pos);
      if (lt < 0) {
        this.text(src.slice(this.pos), this.pos);
        this.pos = src.length;
        break;
      }
      if (
        lt > this.pos &&
        !(this.skipIgnorableWhitespace && this.ignorable(this.pos, lt, src.charCodeAt(lt + 1)))
      )
        this.text(src.slice(this.pos, lt), this.pos);
      this.pos = lt;
      this.markup();
    }
    if (this.stack.length > 0)
      xmlError(`element <${this.stack[this.stack.length - 1]?.element.qname}> not closed`, this.pos);
    if (!this.root) xmlError('no root element', this.pos);
    return { root: this.root, processingInstructions: this.processingInstructions, prefixes: this.prefixes };
  }

  /**
   * Whitespace right after an element's child element or right before one (`next` is the
   * character after the '<' that ends it): it can only separate elements.
   */
  private ignorable(from: number, to: number, next: number): boolean {
    const beforeElement = next !== 0x2f && next !== 0x3f && next !== 0x21;
    if (!beforeElement && !this.lastIsElement) return false;
    for (let i = from; i < to; i++) if (!isWhitespace(this.src.charCodeAt(i))) return false;
    return true;
  }

  private markup(): void {
    const { src } = this;
    const next = src.charCodeAt(this.pos + 1);
    if (next === 0x2f) {
      this.endTag(); // </
      return;
    }
    if (next !== 0x3f && next !== 0x21) {
      this.startTag(); // neither <? nor <!
      return;
    }
    if (next === 0x3f) {
      this.processingInstruction();
      return;
    }
    if (src.startsWith('<!--', this.pos)) {
      const end = src.indexOf('-->', this.pos + 4);
      if (end < 0) xmlError('unterminated comment', this.pos);
      this.pos = end + 3;
      return;
    }
    if (src.startsWith('<![CDATA[', this.pos)) {
      const end = src.indexOf(']]>', this.pos + 9);
      if (end < 0) xmlError('unterminated CDATA section', this.pos);
      this.appendText(src.slice(this.pos + 9, end), this.pos, false);
      this.pos = end + 3;
      return;
    }
    const word = src.slice(this.pos + 2, this.pos + 9).toUpperCase();
    if (word.startsWith('DOCTYPE') || word.startsWith('ENTITY')) {
      throw new MetadataError('XML_DOCTYPE', 'DOCTYPE and ENTITY declarations are not allowed in XMP');
    }
    xmlError('unexpected markup declaration', this.pos);
  }

  private processingInstruction(): void {
    const end = this.src.indexOf('?>', this.pos + 2);
    if (end < 0) xmlError('unterminated processing instruction', this.pos);
    const body = this.src.slice(this.pos + 2, end);
    const match = /^([^\s?]+)\s*([\s\S]*)$/.exec(body);
    if (!match?.[1]) xmlError('processing instruction without target', this.pos);
    this.processingInstructions.push({ target: match[1], data: match[2] ?? '' });
    this.pos = end + 2;
  }

  private readName(): string {
    const { src } = this;
    const start = this.pos;
    const end = nameEnd(src, start);
    if (end === start) xmlError('name expected', start);
    this.pos = end;
    return src.slice(start, end);
  }

  private skipWhitespace(): void {
    while (this.pos < this.src.length && isWhitespace(this.src.charCodeAt(this.pos))) this.pos++;
  }

  private startTag(): void {
    const tagStart = this.pos;
    if (this.root && this.stack.length === 0) xmlError('content after the root element', tagStart);
    if (this.stack.length >= MAX_DEPTH) {
      throw new MetadataError('INVALID_XML', `XML nested deeper than ${MAX_DEPTH} levels`);
    }
    this.pos++;
    const qname = this.readName();
    // Raw attributes as name/value pairs (resolved once the tag's namespace declarations are known).
    const raw: string[] = [];
    let selfClosing = false;
    for (;;) {
      const before = this.pos;
      this.skipWhitespace();
      const ch = this.src.charCodeAt(this.pos);
      if (Number.isNaN(ch)) xmlError(`unterminated tag <${qname}>`, tagStart);
      if (ch === 0x3e) {
        this.pos++;
        break;
      }
      if (ch === 0x2f) {
        if (this.src.charCodeAt(this.pos + 1) !== 0x3e) xmlError('expected />', this.pos);
        this.pos += 2;
        selfClosing = true;
        break;
      }
      if (this.pos === before) xmlError('whitespace expected between attributes', this.pos);
      this.attribute(raw);
    }
    const scope = this.declareNamespaces(raw, tagStart);
    this.resolve(qname, true, tagStart);
    const element: XmlElement = {
      kind: 'element',
      qname,
      prefix: this.prefix,
      local: this.local,
      ns: this.ns,
      attributes: raw.length === 0 ? NO_ATTRIBUTES : this.resolveAttributes(raw, tagStart),
      children: [],
    };
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.element.children.push(element);
    else this.root = element;
    if (selfClosing) {
      if (scope) this.popScope();
      this.lastIsElement = true;
    } else {
      this.stack.push({ element, scope });
      this.lastIsElement = false;
    }
  }

  /** Reads one attribute and appends its name and value to `raw`. */
  private attribute(raw: string[]): void {
    const nameStart = this.pos;
    const qname = this.readName();
    this.skipWhitespace();
    if (this.src.charCodeAt(this.pos) !== 0x3d) xmlError(`attribute ${qname} without value`, nameStart);
    this.pos++;
    this.skipWhitespace();
    const quote = this.src[this.pos];
    if (quote !== '"' && quote !== "'") xmlError(`attribute ${qname} value must be quoted`, this.pos);
    const end = this.src.indexOf(quote, this.pos + 1);
    if (end < 0) xmlError(`unterminated value of attribute ${qname}`, this.pos);
    const text = this.src.slice(this.pos + 1, end);
    if (text.includes('<')) xmlError(`'<' in value of attribute ${qname}`, this.pos);
    // Attribute-value normalisation: literal tabs and newlines become spaces (XML 1.0 §3.3.3).
    const normalised = text.includes('\n') || text.includes('\t') ? text.replace(/[\t\n]/g, ' ') : text;
    raw.push(qname, decodeEntities(normalised, this.pos + 1));
    this.pos = end + 1;
  }

  private declareNamespaces(raw: readonly string[], at: number): Map<string, string> | undefined {
    let scope: Map<string, string> | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const qname = raw[i] as string;
      const value = raw[i + 1] as string;
      if (qname !== 'xmlns' && !qname.startsWith('xmlns:')) continue;
      const prefix = qname === 'xmlns' ? '' : qname.slice(6);
      if (prefix === 'xmlns' || (prefix === 'xml' && value !== XML_NS))
        xmlError(`reserved prefix ${prefix}`, at);
      if (prefix !== '' && value === '') xmlError(`empty namespace for prefix ${prefix}`, at);
      scope ??= new Map();
      scope.set(prefix, this.namespaces?.get(value) ?? value);
      if (prefix !== '' && !this.prefixes.has(value)) this.prefixes.set(value, prefix);
    }
    if (scope) {
      this.scopes.push(scope);
      this.recent.length = 0;
    }
    return scope;
  }

  private popScope(): void {
    this.scopes.pop();
    this.recent.length = 0;
  }

  /**
   * The last two prefixes looked up and their URIs, while the scopes stay as they are: names
   * mostly alternate between two prefixes (rdf:li and xml:lang), and a map look-up of a prefix
   * sliced from the text must hash it first.
   */
  private readonly recent: Array<string | undefined> = [];

  private lookup(prefix: string): string | undefined {
    const { recent } = this;
    if (recent[0] === prefix) return recent[1];
    if (recent[2] === prefix) return recent[3];
    let uri: string | undefined;
    for (let i = this.scopes.length - 1; i >= 0 && uri === undefined; i--) uri = this.scopes[i]?.get(prefix);
    recent[2] = recent[0];
    recent[3] = recent[1];
    recent[0] = prefix;
    recent[1] = uri;
    return uri;
  }

  // The parts of the name resolve() was given last (no object per name).
  private prefix = '';
  private local = '';
  private ns = '';

  private resolve(qname: string, isElement: boolean, at: number): void {
    const colon = qname.indexOf(':');
    // (Not lastIndexOf: that one leaves the compiled code for the runtime.)
    if ((colon >= 0 && qname.indexOf(':', colon + 1) >= 0) || colon === 0 || colon === qname.length - 1) {
      xmlError(`malformed name ${qname}`, at);
    }
    if (colon < 0) {
      this.prefix = '';
      this.local = qname;
      this.ns = isElement ? (this.lookup('') ?? '') : '';
      return;
    }
    const prefix = qname.slice(0, colon);
    const ns = prefix === 'xmlns' ? XMLNS_NS : this.lookup(prefix);
    if (ns === undefined) xmlError(`undeclared namespace prefix ${prefix}`, at);
    this.prefix = prefix;
    this.local = qname.slice(colon + 1);
    this.ns = ns;
  }

  private resolveAttributes(raw: readonly string[], at: number): XmlAttribute[] {
    const attributes: XmlAttribute[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const qname = raw[i] as string;
      this.resolve(qname, false, at);
      const { local, ns } = this;
      // Elements have few attributes: a linear check beats building a set.
      for (const other of attributes)
        if (other.local === local && other.ns === ns) xmlError(`duplicate attribute ${qname}`, at);
      attributes.push({ qname, prefix: this.prefix, local, ns, value: raw[i + 1] as string });
    }
    return attributes;
  }

  private endTag(): void {
    const start = this.pos;
    this.pos += 2;
    const expected = this.stack[this.stack.length - 1]?.element.qname;
    let qname: string;
    // The usual case, the name of the open element, is compared in place.
    const after = this.pos + (expected?.length ?? 0);
    // (A slice compared whole: startsWith with a position, or a loop, takes twice as long.)
    if (
      expected !== undefined &&
      this.src.slice(this.pos, after) === expected &&
      (after === this.src.length || !isNameChar(this.src.charCodeAt(after)))
    ) {
      qname = expected;
      this.pos = after;
    } else qname = this.readName();
    this.skipWhitespace();
    if (this.src[this.pos] !== '>') xmlError(`malformed end tag </${qname}`, start);
    this.pos++;
    const open = this.stack.pop();
    if (!open) xmlError(`unexpected end tag </${qname}>`, start);
    if (open.element.qname !== qname)
      xmlError(`end tag </${qname}> does not match <${open.element.qname}>`, start);
    if (open.scope) this.popScope();
    this.lastIsElement = true; // the parent's last child is the element just closed
  }

  private text(raw: string, at: number): void {
    this.appendText(raw, at, true);
  }

  private appendText(raw: string, at: number, decode: boolean): void {
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      if (/\S/.test(raw)) xmlError('text outside the root element', at);
      return;
    }
    if (decode && raw.includes(']]>')) xmlError("']]>' in text", at);
    const value = decode ? decodeEntities(raw, at) : raw;
    const children = parent.element.children;
    const last = this.lastIsElement ? undefined : children[children.length - 1];
    if (last !== undefined) (last as XmlText).value += value;
    else children.push({ kind: 'text', value });
    this.lastIsElement = false;
  }
}

export interface ParseOptions {
  /**
   * Leave out whitespace that follows or precedes a child element (indentation between
   * elements). For readers, like RDF's, to whom text beside child elements means nothing unless
   * it is more than whitespace; whitespace that is an element's only content is kept.
   */
  skipIgnorableWhitespace?: boolean;
  /**
   * Namespace URIs the caller compares names with, each mapped to itself: a name in one of them
   * gets that very string as its `ns`, so the caller's comparisons are identity checks instead
   * of comparing a URI read from the text character by character.
   */
  namespaces?: ReadonlyMap<string, string>;
}

/**
 * Parses an XML document held in a string. Line ends are normalised first (XML 1.0 §2.11) and
 * characters XML does not allow are dropped.
 * Throws MetadataError INVALID_XML or XML_DOCTYPE.
 */
export function parseXml(source: string, options: ParseOptions = {}): XmlDocument {
  const text = sanitizeXmlText(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  return new Parser(
    text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text,
    options.skipIgnorableWhitespace ?? false,
    options.namespaces,
  ).parse();
}
