// Reading a packet that is not well-formed XML the way ExifTool reads it (its XMP reader is not a
// strict XML parser): after the strict parse has failed, the faults real writers make are
// mended and the packet is parsed again, so that one bad element or a cut-off trailer does not
// cost every property (issue 26: a camera trap's `<?xpacket end="w"` without `?>`, DxO element
// names with a `/`). What still cannot be read is dropped by the caller, as before.

/** The end tags of the packet's root forms; what follows the last of them is not XMP. */
const rootEnds = ['</x:xmpmeta>', '</x:xapmeta>', '</rdf:RDF>'];
/** An element name with a `/` inside (`<exif:Lens/Info>`): ExifTool reads the part before it. */
const slashInName = /(<\/?[A-Za-z_][\w.-]*:[\w.-]+)\/[\w.-][\w./-]*/g;
/** An `&` that starts no entity or character reference: a literal ampersand. */
const bareAmpersand = /&(?!(?:[A-Za-z_][\w.-]*|#\d+|#x[\da-fA-F]+);)/g;

/** The mended packet text and what was mended, or undefined when there was nothing to mend. */
export function mendXmpText(text: string): { text: string; mended: string[] } | undefined {
  const mended: string[] = [];
  let out = text;
  for (const end of rootEnds) {
    const at = out.lastIndexOf(end);
    if (at < 0) continue;
    const rest = out.slice(at + end.length);
    // A trailer other than a complete <?xpacket end?> (or whitespace) is cut off.
    if (!/^\s*(<\?xpacket end=["'][rw]["']\s*\?>\s*)?$/.test(rest)) {
      out = out.slice(0, at + end.length);
      mended.push('text after the packet cut off');
    }
    break;
  }
  const renamed = out.replace(slashInName, '$1');
  if (renamed !== out) mended.push("element names with '/' read up to it");
  out = renamed;
  const escaped = out.replace(bareAmpersand, '&amp;');
  if (escaped !== out) mended.push("'&' read as a character");
  out = escaped;
  return mended.length > 0 ? { text: out, mended } : undefined;
}
