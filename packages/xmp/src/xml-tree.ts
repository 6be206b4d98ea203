// Reading the tree parseXml makes (re-exported by xml-parser.ts).
import type { XmlElement } from './xml-parser.ts';

/** Concatenated text children of an element. */
export function textContent(element: XmlElement): string {
  let out = '';
  for (const child of element.children) if (child.kind === 'text') out += child.value;
  return out;
}

export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => child.kind === 'element');
}
