// XMP sidecar files (.xmp) for a project's template: "Download XMP" writes one that ExifTool,
// Photoshop and Photo Mechanic read; the 'storexmpfile' upload reads one back into values.
// Variables ({city}) stay as written: they are resolved per picture, not here.
// Each property's mode travels in our own namespace (one photorelay:<property id> element
// holding the mode), which other readers ignore and our import restores.
import { catalog, getProperty as catalogProperty, localName } from './catalog.ts';
import type { Mode } from './catalog-types.ts';
import { checkTemplate, nodeToValues, type Template, type TemplateValue, templateNode } from './template.ts';
import { emptyPacket, getProperty, pruneEmpty, setProperty, simple, type XmpPacket } from './xmp-model.ts';
import { parseXmpPacket } from './xmp-packet.ts';
import { serializeXmpPacket } from './xmp-serialize.ts';

export const PHOTORELAY_NS = 'https://photorelay.app/ns/1.0/';

/** A sidecar with every value of the template and, in the PhotoRelay namespace, its modes. */
export function templateToXmpSidecar(template: Template): string {
  const { valuesByProperty } = checkTemplate(template);
  const packet = emptyPacket();
  packet.prefixes.set(PHOTORELAY_NS, 'photorelay');
  for (const def of catalog) {
    const node = templateNode(def, valuesByProperty.get(def.id) ?? []);
    const kept = node ? pruneEmpty(node) : undefined;
    if (kept) setProperty(packet, def.namespace, localName(def), kept);
  }
  for (const def of catalog) {
    const mode = template.modes[def.id];
    if (mode) setProperty(packet, PHOTORELAY_NS, def.id, simple(mode));
  }
  return serializeXmpPacket(packet, { padding: 0 });
}

/** The modes a PhotoRelay sidecar carries (only those the property allows); undefined for other files. */
function sidecarModes(packet: XmpPacket): Record<string, Mode> | undefined {
  const ours = packet.properties.filter((field) => field.ns === PHOTORELAY_NS);
  if (ours.length === 0) return undefined;
  const modes: Record<string, Mode> = {};
  for (const field of ours) {
    const def = catalogProperty(field.name);
    if (!def || field.node.kind !== 'simple') continue;
    const mode = field.node.value as Mode;
    if (def.modes.includes(mode)) modes[def.id] = mode;
  }
  return modes;
}

/**
 * Template values from a sidecar (or any XMP packet): one value per catalog property field
 * found. Modes come from the PhotoRelay namespace when the file has it, else each property
 * with values gets 'replace'. Unknown properties are ignored.
 */
export function xmpSidecarToTemplate(xml: string | Uint8Array): Template {
  const packet = parseXmpPacket(xml);
  const stored = sidecarModes(packet);
  const values: TemplateValue[] = [];
  const modes: Template['modes'] = { ...stored };
  for (const def of catalog) {
    const node = getProperty(packet, def.namespace, localName(def));
    if (!node) continue;
    const found = nodeToValues(def, node).filter((value) => value.value !== '');
    if (found.length === 0) continue;
    values.push(...found);
    modes[def.id] ??= 'replace';
  }
  return { modes, values };
}
