// XMP sidecar files (.xmp) for a project's template: "Download XMP" writes one that ExifTool,
// Photoshop and Photo Mechanic read; the 'storexmpfile' upload reads one back into values.
// Variables ({city}) stay as written: they are resolved per picture, not here.
import { catalog, localName } from './catalog.ts';
import { checkTemplate, nodeToValues, type Template, type TemplateValue, templateNode } from './template.ts';
import { emptyPacket, getProperty, pruneEmpty, setProperty } from './xmp-model.ts';
import { parseXmpPacket } from './xmp-packet.ts';
import { serializeXmpPacket } from './xmp-serialize.ts';

/** A sidecar with every value of the template (whatever the modes: they are not XMP data). */
export function templateToXmpSidecar(template: Template): string {
  const { valuesByProperty } = checkTemplate(template);
  const packet = emptyPacket();
  for (const def of catalog) {
    const node = templateNode(def, valuesByProperty.get(def.id) ?? []);
    const kept = node ? pruneEmpty(node) : undefined;
    if (kept) setProperty(packet, def.namespace, localName(def), kept);
  }
  return serializeXmpPacket(packet, { padding: 0 });
}

/**
 * Template values from a sidecar (or any XMP packet): one value per catalog property field
 * found, with mode 'replace' for each property that has values. Unknown properties are ignored.
 */
export function xmpSidecarToTemplate(xml: string | Uint8Array): Template {
  const packet = parseXmpPacket(xml);
  const values: TemplateValue[] = [];
  const modes: Template['modes'] = {};
  for (const def of catalog) {
    const node = getProperty(packet, def.namespace, localName(def));
    if (!node) continue;
    const found = nodeToValues(def, node).filter((value) => value.value !== '');
    if (found.length === 0) continue;
    values.push(...found);
    modes[def.id] = 'replace';
  }
  return { modes, values };
}
