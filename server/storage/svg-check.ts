/**
 * SVG uploads: parsed as XML (so namespace prefixes are resolved, not guessed at by a pattern),
 * then sanitised in place by DOMPurify (SVG and SVG-filter profiles) in a jsdom window. Nothing is
 * rewritten: an upload from which the sanitiser removed anything is refused, naming what it found.
 * On top of DOMPurify: only SVG-namespace elements and attributes without a namespace or in the
 * xlink/xml/xmlns namespaces; no DOCTYPE, entity or processing instruction (the XML declaration
 * alone is allowed); no external reference (href only to `#fragment`, or to a base64 PNG, JPEG,
 * WebP or GIF on <image>; url() only to `#fragment`; no @import, image-set() or CSS escape). What is stored is
 * the serialised document that passed, not the bytes around it.
 */
import type { DOMPurify, RemovedAttribute, RemovedElement, WindowLike } from 'dompurify';
import type { DOMWindow } from 'jsdom';
import { APPCMS_MESSAGES, UPLOAD_LIMITS } from '../../common/appcms';

type SvgCheck = { ok: true; text: string; width: number; height: number } | { ok: false; message: string };

const SVG_NS = 'http://www.w3.org/2000/svg';
const ATTRIBUTE_NAMESPACES = new Set([null, 'http://www.w3.org/1999/xlink', 'http://www.w3.org/XML/1998/namespace', 'http://www.w3.org/2000/xmlns/']);
/** Elements DOMPurify leaves out by default that are safe once their href is internal (checked below). */
const EXTRA_TAGS = ['use', '#comment'];
const EXTRA_ATTRIBUTES = ['role'];
const INTERNAL_HREF = /^#[^\s"'<>]+$/;
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=\s]+$/;
/**
 * A CSS reference that leaves the document: url() not to a #fragment, @import, image-set(); and
 * any backslash, since a CSS escape can spell those (`u\72l(`, `@\69mport`).
 */
const EXTERNAL_CSS = /url\(\s*(?!["']?\s*#)|@import|image-set\(|\\/i;

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
const complex = (): SvgCheck => ({ ok: false, message: APPCMS_MESSAGES.uploadSvgComplex(UPLOAD_LIMITS.maxSvgElements, UPLOAD_LIMITS.maxSvgDepth) });

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

/** The elements of the tree in document order (a tree walk: jsdom's live getElementsByTagName('*') is quadratic here). */
function elementsOf(root: Element): Element[] {
  const walker = root.ownerDocument.createTreeWalker(root, 0x1 /* NodeFilter.SHOW_ELEMENT */);
  const elements: Element[] = [];
  for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) elements.push(node as Element);
  return elements;
}

/** The first external reference in the (already sanitised) tree, described; undefined when none. */
function externalReference(elements: Element[]): string | undefined {
  for (const element of elements) {
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
function foreignNamespace(elements: Element[]): string | undefined {
  for (const element of elements) {
    if (element.namespaceURI !== SVG_NS) return `the element <${element.nodeName}>`;
    const attribute = Array.from(element.attributes).find((a) => !ATTRIBUTE_NAMESPACES.has(a.namespaceURI));
    if (attribute) return `the attribute ${attribute.name} on <${element.nodeName}>`;
  }
  return undefined;
}

/**
 * Elements and deepest nesting, by one pass over the text before it is parsed (jsdom's parser and
 * serialiser slow down with the depth and overflow the stack at a few thousand levels). Quoted
 * attribute values are skipped, so a `/>` or `>` inside one is not taken for the end of a tag;
 * comments, CDATA and processing instructions are skipped whole.
 */
function svgShape(text: string): { elements: number; depth: number } {
  let elements = 0;
  let depth = 0;
  let deepest = 0;
  const skipTo = (from: number, end: string) => {
    const at = text.indexOf(end, from);
    return at < 0 ? text.length : at + end.length;
  };
  for (let i = text.indexOf('<'); i >= 0 && i < text.length; i = text.indexOf('<', i)) {
    if (text.startsWith('<!--', i)) i = skipTo(i + 4, '-->');
    else if (text.startsWith('<![CDATA[', i)) i = skipTo(i + 9, ']]>');
    else if (text.startsWith('<?', i)) i = skipTo(i + 2, '?>');
    else if (text.startsWith('</', i)) {
      depth -= 1;
      i = skipTo(i + 2, '>');
    } else {
      let j = i + 1;
      let last = '';
      while (j < text.length && text[j] !== '>') {
        const c = text[j];
        if (c === '"' || c === "'") j = skipTo(j + 1, c) - 1;
        else if (!/\s/.test(c!)) last = c!;
        j += 1;
      }
      elements += 1;
      if (last !== '/') deepest = Math.max(deepest, (depth += 1));
      i = j + 1;
    }
  }
  return { elements, depth: deepest };
}

export async function checkSvg(text: string): Promise<SvgCheck> {
  // Before parsing: no DTD at all (entities, external or internal, never reach the parser).
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return refused('a DOCTYPE or entity declaration');
  const shape = svgShape(text);
  if (shape.elements > UPLOAD_LIMITS.maxSvgElements || shape.depth > UPLOAD_LIMITS.maxSvgDepth) return complex();
  try {
    return await parseAndSanitise(text);
  } catch {
    // jsdom or DOMPurify gave up (the stack, in practice): the file is refused as too complex.
    return complex();
  }
}

async function parseAndSanitise(text: string): Promise<SvgCheck> {
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
  const elements = elementsOf(root);
  const foreign = foreignNamespace(elements) ?? externalReference(elements);
  if (foreign) return refused(foreign);
  return { ok: true, text: serializer.serializeToString(root), ...svgSize(root) };
}
