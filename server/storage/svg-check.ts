/**
 * SVG uploads: parsed as XML (so namespace prefixes are resolved, not guessed at by a pattern),
 * then sanitised in place by DOMPurify (SVG and SVG-filter profiles) in a jsdom window. Nothing is
 * rewritten: an upload from which the sanitiser removed anything is refused, naming what it found.
 * On top of DOMPurify: only SVG-namespace elements and attributes without a namespace or in the
 * xlink/xml/xmlns namespaces; no DOCTYPE, entity or processing instruction (the XML declaration
 * alone is allowed); no external reference (href only to `#fragment`, or to a base64 PNG, JPEG,
 * WebP or GIF on <image>; url() only to `#fragment`; no @import or image-set()). What is stored is
 * the serialised document that passed, not the bytes around it.
 */
import type { DOMPurify, RemovedAttribute, RemovedElement, WindowLike } from 'dompurify';
import type { DOMWindow } from 'jsdom';
import { APPCMS_MESSAGES } from '../../common/appcms';

export type SvgCheck = { ok: true; text: string; width: number; height: number } | { ok: false; message: string };

const SVG_NS = 'http://www.w3.org/2000/svg';
const ATTRIBUTE_NAMESPACES = new Set([null, 'http://www.w3.org/1999/xlink', 'http://www.w3.org/XML/1998/namespace', 'http://www.w3.org/2000/xmlns/']);
/** Elements DOMPurify leaves out by default that are safe once their href is internal (checked below). */
const EXTRA_TAGS = ['use', '#comment'];
const EXTRA_ATTRIBUTES = ['role'];
const INTERNAL_HREF = /^#[^\s"'<>]+$/;
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=\s]+$/;
/** A CSS reference that leaves the document: url() not to a #fragment, @import, image-set(). */
const EXTERNAL_CSS = /url\(\s*(?!["']?\s*#)|@import|image-set\(/i;

interface Sanitiser {
  parser: InstanceType<DOMWindow['DOMParser']>;
  serializer: InstanceType<DOMWindow['XMLSerializer']>;
  purify: DOMPurify;
}

let sanitiser: Promise<Sanitiser> | undefined;

/** One jsdom window for the process, made at the first SVG (jsdom is slow to load; PNGs never need it). */
function getSanitiser(): Promise<Sanitiser> {
  sanitiser ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const { window } = new JSDOM('');
    return { parser: new window.DOMParser(), serializer: new window.XMLSerializer(), purify: createDOMPurify(window as unknown as WindowLike) };
  })();
  return sanitiser;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);
const refused = (what: string): SvgCheck => ({ ok: false, message: APPCMS_MESSAGES.uploadSvgRefused(clip(what)) });

/** A side from width/height ("64", "64px") or else from the viewBox; NaN when neither says. */
function svgSize(root: Element): { width: number; height: number } {
  const length = (name: string) => /^\s*([0-9]+(?:\.[0-9]+)?)(?:px)?\s*$/.exec(root.getAttribute(name) ?? '')?.[1];
  const box = (root.getAttribute('viewBox') ?? '').trim().split(/[\s,]+/).map(Number);
  return {
    width: Math.round(Number(length('width') ?? (box.length === 4 ? box[2] : NaN))),
    height: Math.round(Number(length('height') ?? (box.length === 4 ? box[3] : NaN))),
  };
}

function describeRemoved(item: RemovedElement | RemovedAttribute): string {
  if ('attribute' in item) return `the attribute ${item.attribute?.name ?? '?'} on <${item.from.nodeName}>`;
  const node = item.element;
  if (node.nodeType === 4) return 'a CDATA section';
  return `the element <${node.nodeName}>`;
}

/** The first external reference in the (already sanitised) tree, described; undefined when none. */
function externalReference(root: Element): string | undefined {
  for (const element of [root, ...Array.from(root.getElementsByTagName('*'))]) {
    for (const attribute of Array.from(element.attributes)) {
      const value = attribute.value.trim();
      const external = attribute.localName === 'href'
        ? !INTERNAL_HREF.test(value) && !(element.localName === 'image' && EMBEDDED_IMAGE.test(value))
        : EXTERNAL_CSS.test(value);
      if (external) return `an external reference (${attribute.name} on <${element.nodeName}>)`;
    }
    if (element.localName === 'style' && EXTERNAL_CSS.test(element.textContent ?? '')) return 'an external reference (<style>)';
  }
  return undefined;
}

/** An element or attribute outside the allowed namespaces, described; undefined when none. */
function foreignNamespace(root: Element): string | undefined {
  for (const element of [root, ...Array.from(root.getElementsByTagName('*'))]) {
    if (element.namespaceURI !== SVG_NS) return `the element <${element.nodeName}>`;
    const attribute = Array.from(element.attributes).find((a) => !ATTRIBUTE_NAMESPACES.has(a.namespaceURI));
    if (attribute) return `the attribute ${attribute.name} on <${element.nodeName}>`;
  }
  return undefined;
}

export async function checkSvg(text: string): Promise<SvgCheck> {
  // Before parsing: no DTD at all (entities, external or internal, never reach the parser).
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return refused('a DOCTYPE or entity declaration');
  const { parser, serializer, purify } = await getSanitiser();
  const doc = parser.parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (doc.getElementsByTagNameNS('http://www.mozilla.org/newlayout/xml/parsererror.xml', 'parsererror').length > 0
    || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) {
    return { ok: false, message: APPCMS_MESSAGES.uploadSvgInvalid };
  }
  if (doc.doctype) return refused('a DOCTYPE or entity declaration');
  // Processing instructions anywhere (<?xml-stylesheet?> before the root, or inside it).
  const walker = doc.createTreeWalker(doc, 0x40 /* NodeFilter.SHOW_PROCESSING_INSTRUCTION */);
  const instruction = walker.nextNode() as ProcessingInstruction | null;
  if (instruction) return refused(`a processing instruction (<?${instruction.target}?>)`);

  purify.sanitize(root, {
    IN_PLACE: true, USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: EXTRA_TAGS, ADD_ATTR: EXTRA_ATTRIBUTES,
  });
  const [removed] = purify.removed;
  if (removed) return refused(describeRemoved(removed));
  const foreign = foreignNamespace(root) ?? externalReference(root);
  if (foreign) return refused(foreign);
  return { ok: true, text: serializer.serializeToString(root), ...svgSize(root) };
}
