import type { Readable } from 'node:stream';
import { DOCUMENT_CONTENT_TYPES } from '@fvg/contracts';

/** How many leading bytes the detection looks at (a ZIP's first entries, an OLE file's directory, mail headers). */
export const SNIFF_BYTES = 64 * 1024;

export interface Detected {
  /** The detected media type, also for refused files (e.g. `application/x-executable`). */
  contentType: string;
  /** What to call it in a message. */
  description: string;
  allowed: boolean;
  /** Text formats: the rest of the stream must stay valid UTF-8 without NUL bytes. */
  utf8?: boolean;
}

const OOXML = {
  word: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xl: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
} as const;
const OOXML_BY_EXTENSION: Record<string, string> = {
  docx: OOXML.word,
  xlsx: OOXML.xl,
  pptx: OOXML.ppt,
};
const OLE_BY_EXTENSION: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  msg: 'application/vnd.ms-outlook',
};

function allowed(contentType: keyof typeof DOCUMENT_CONTENT_TYPES, utf8 = false): Detected {
  return {
    contentType,
    description: DOCUMENT_CONTENT_TYPES[contentType],
    allowed: true,
    ...(utf8 ? { utf8 } : {}),
  };
}
function refused(contentType: string, description: string): Detected {
  return { contentType, description, allowed: false };
}

function startsWith(b: Buffer, bytes: number[] | string, at = 0): boolean {
  const sig = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return b.length >= at + sig.length && b.subarray(at, at + sig.length).equals(sig);
}

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** Names of the ZIP entries whose local headers lie within the bytes seen. */
function zipEntryNames(b: Buffer): string[] {
  const names: string[] = [];
  for (let i = b.indexOf('PK\x03\x04', 0, 'latin1'); i >= 0; i = b.indexOf('PK\x03\x04', i + 4, 'latin1')) {
    if (i + 30 > b.length) break;
    const nameLength = b.readUInt16LE(i + 26);
    if (i + 30 + nameLength > b.length) break;
    names.push(b.subarray(i + 30, i + 30 + nameLength).toString('utf8'));
  }
  return names;
}

function zip(b: Buffer, ext: string): Detected {
  const names = zipEntryNames(b);
  if (!names.includes('[Content_Types].xml')) {
    if (names.includes('mimetype') && b.includes('application/vnd.oasis.opendocument', 0, 'latin1'))
      return refused('application/vnd.oasis.opendocument', 'OpenDocument file');
    return refused('application/zip', 'ZIP archive');
  }
  // Macro-enabled Office files carry VBA code: refused when the macro part is among the entries seen.
  if (names.some((n) => /vbaProject\.bin$/i.test(n)))
    return refused('application/vnd.ms-office.vbaProject', 'macro-enabled Office document');
  const byPart = names.some((n) => n.startsWith('word/'))
    ? OOXML.word
    : names.some((n) => n.startsWith('xl/'))
      ? OOXML.xl
      : names.some((n) => n.startsWith('ppt/'))
        ? OOXML.ppt
        : OOXML_BY_EXTENSION[ext];
  if (!byPart)
    return refused(
      'application/zip',
      'Open Packaging (ZIP) file that is not a Word, Excel or PowerPoint document',
    );
  return allowed(byPart as keyof typeof DOCUMENT_CONTENT_TYPES);
}

function utf16(s: string): Buffer {
  return Buffer.from(s, 'utf16le');
}

/** An OLE compound file: the stream names in its directory tell Word, Excel, PowerPoint and Outlook apart. */
function ole(b: Buffer, ext: string): Detected {
  if (b.includes(utf16('__substg1.0_'))) return allowed('application/vnd.ms-outlook');
  if (b.includes(utf16('WordDocument'))) return allowed('application/msword');
  if (b.includes(utf16('Workbook')) || b.includes(utf16('Book\0')))
    return allowed('application/vnd.ms-excel');
  if (b.includes(utf16('PowerPoint Document'))) return allowed('application/vnd.ms-powerpoint');
  const byExt = OLE_BY_EXTENSION[ext];
  if (byExt) return allowed(byExt as keyof typeof DOCUMENT_CONTENT_TYPES);
  return refused('application/x-ole-storage', 'OLE compound file that is not an Office document');
}

/** The text of `b` when it is UTF-8 without NUL bytes (a sequence cut at the end of an incomplete head is fine). */
function utf8Text(b: Buffer, complete: boolean): string | undefined {
  if (b.includes(0)) return undefined;
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    return decoder.decode(b, { stream: !complete });
  } catch {
    return undefined;
  }
}

const MAIL_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'received',
  'return-path',
  'reply-to',
  'content-type',
  'delivered-to',
  'x-mailer',
]);

/** RFC 5322 header lines up to the blank line, with at least two well-known mail headers. */
function looksLikeMail(text: string, complete: boolean): boolean {
  const lines = text.split(/\r?\n/);
  let known = 0;
  let headers = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') return headers > 0 && known >= 2;
    if (i === lines.length - 1 && !complete) break; // cut off by the end of the head
    if (/^[ \t]/.test(line) && headers > 0) continue; // folded continuation
    const m = /^([!-9;-~]+):/.exec(line);
    if (!m) return false;
    headers++;
    if (MAIL_HEADERS.has((m[1] as string).toLowerCase())) known++;
  }
  return headers > 0 && known >= 2;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * What follows the prolog (XML declaration, processing instructions, comments, a doctype with or
 * without an internal subset), and the doctype's name; undefined when the head ends inside the prolog.
 */
function afterProlog(t: string): { rest: string; doctype?: string } | undefined {
  let rest = t;
  let doctype: string | undefined;
  for (;;) {
    rest = rest.replace(/^\s+/, '');
    if (rest.startsWith('<?') || rest.startsWith('<!--')) {
      const close = rest.startsWith('<?') ? '?>' : '-->';
      const end = rest.indexOf(close);
      if (end < 0) return undefined;
      rest = rest.slice(end + close.length);
    } else if (/^<!doctype/i.test(rest)) {
      const m = /^<!doctype\s+([^\s[>]*)[^[>]*(?:\[[\s\S]*?\])?\s*>/i.exec(rest);
      if (!m) return undefined;
      doctype = m[1];
      rest = rest.slice(m[0].length);
    } else return { rest, ...(doctype ? { doctype } : {}) };
  }
}

/**
 * HTML, XHTML and SVG are refused whatever their spelling: a root element named html or svg with or
 * without a prefix (`<x:svg xmlns:x=…>`), or in the XHTML or SVG namespace by its default or prefixed
 * declaration. XML that declares either namespace anywhere in the head is refused too: a browser runs
 * script elements of those namespaces inside any XML document it renders.
 */
function markup(text: string, ext: string): Detected | undefined {
  const t = text.replace(/^\s+/, '');
  if (!t.startsWith('<')) return undefined;
  const prolog = afterProlog(t);
  if (prolog?.doctype && /^html$/i.test(prolog.doctype)) return refused('text/html', 'HTML page');
  if (prolog?.doctype && /^(\w+:)?svg$/i.test(prolog.doctype)) return refused('image/svg+xml', 'SVG image');
  const rest = prolog?.rest ?? '';
  const tag = /^<([A-Za-z_][\w.-]*)(?::([A-Za-z_][\w.-]*))?([^>]*)/.exec(rest);
  const prefix = tag?.[2] !== undefined ? tag[1] : undefined;
  const local = (tag?.[2] ?? tag?.[1])?.toLowerCase();
  const attributes = tag?.[3] ?? '';
  const declared = new RegExp(`\\sxmlns${prefix ? `:${prefix}` : ''}\\s*=\\s*["']([^"']*)["']`).exec(
    attributes,
  )?.[1];
  if (!prefix && local && /^(html|head|body|script|iframe)$/.test(local) && declared !== XHTML_NS)
    return refused('text/html', 'HTML page');
  if (local === 'svg' || declared === SVG_NS) return refused('image/svg+xml', 'SVG image');
  if (local === 'html' || declared === XHTML_NS) return refused('application/xhtml+xml', 'XHTML page');
  if (t.includes(SVG_NS) || t.includes(XHTML_NS))
    return refused('application/xhtml+xml', 'XML with embedded XHTML or SVG');
  if (t.startsWith('<?xml')) return allowed('application/xml', true);
  // XML without a declaration is still XML, when the name says so.
  if (tag && ext === 'xml') return allowed('application/xml', true);
  return undefined;
}

/**
 * The type of a file from its first bytes (`head`, up to SNIFF_BYTES; `complete` when that is the whole
 * file), and whether documents may be of that type. The name only breaks ties the bytes leave open
 * (an OLE or OOXML file whose telling parts lie beyond the head, CSV versus other text).
 */
export function detectContentType(head: Buffer, fileName: string, complete: boolean): Detected {
  const ext = extensionOf(fileName);
  const b = head;
  if (b.length === 0) return refused('application/x-empty', 'empty file');
  if (startsWith(b, '%PDF-')) return allowed('application/pdf');
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return allowed('image/png');
  if (startsWith(b, [0xff, 0xd8, 0xff])) return allowed('image/jpeg');
  if (startsWith(b, 'GIF87a') || startsWith(b, 'GIF89a')) return allowed('image/gif');
  if (startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8)) return allowed('image/webp');
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]))
    return allowed('image/tiff');
  if (startsWith(b, 'PK\x03\x04')) return zip(b, ext);
  if (startsWith(b, 'PK\x05\x06') || startsWith(b, 'PK\x07\x08'))
    return refused('application/zip', 'ZIP archive');
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return ole(b, ext);
  // Known kinds that are refused, named so the message says what the file is.
  if (startsWith(b, [0x7f, 0x45, 0x4c, 0x46])) return refused('application/x-executable', 'ELF executable');
  if (startsWith(b, 'MZ'))
    return refused('application/vnd.microsoft.portable-executable', 'Windows executable');
  if (
    startsWith(b, [0xfe, 0xed, 0xfa, 0xce]) ||
    startsWith(b, [0xfe, 0xed, 0xfa, 0xcf]) ||
    startsWith(b, [0xcf, 0xfa, 0xed, 0xfe]) ||
    startsWith(b, [0xce, 0xfa, 0xed, 0xfe]) ||
    startsWith(b, [0xca, 0xfe, 0xba, 0xbe])
  )
    return refused('application/x-mach-binary', 'macOS executable or Java class');
  if (startsWith(b, [0x1f, 0x8b])) return refused('application/gzip', 'gzip archive');
  if (startsWith(b, '7z\xbc\xaf\x27\x1c')) return refused('application/x-7z-compressed', '7-Zip archive');
  if (startsWith(b, 'Rar!')) return refused('application/vnd.rar', 'RAR archive');
  if (startsWith(b, '#!')) return refused('text/x-shellscript', 'script');

  if (startsWith(b, [0xff, 0xfe]) || startsWith(b, [0xfe, 0xff])) {
    const text = new TextDecoder(b[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(b.subarray(2));
    if (/^\s*<\?xml/.test(text)) {
      const m = markup(text, ext);
      return m && !m.allowed ? m : allowed('application/xml');
    }
    return refused('text/plain', 'UTF-16 text');
  }
  const body = startsWith(b, [0xef, 0xbb, 0xbf]) ? b.subarray(3) : b;
  const text = utf8Text(body, complete);
  // Mail headers are ASCII; a body may still be 8-bit in a legacy charset, so mail is not held to UTF-8.
  if (!body.includes(0) && looksLikeMail(text ?? body.toString('latin1'), complete))
    return allowed('message/rfc822');
  if (text === undefined) return refused('application/octet-stream', 'binary file of unknown type');
  const m = markup(text, ext);
  if (m) return m;
  if (ext === 'csv') return allowed('text/csv', true);
  return refused('text/plain', 'plain text file');
}

/** Checks, chunk by chunk, that a text file stays valid UTF-8 without NUL bytes beyond its head. */
export function utf8Checker(): { push(chunk: Uint8Array): boolean; end(): boolean } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return {
    push(chunk) {
      if (chunk.includes(0)) return false;
      try {
        decoder.decode(chunk, { stream: true });
        return true;
      } catch {
        return false;
      }
    },
    end() {
      try {
        decoder.decode();
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** A file the allow-list refuses: its detected type, or text that turned out not to be UTF-8 text. */
export class RefusedContentError extends Error {
  constructor(
    readonly detected: Detected,
    readonly reason: 'type' | 'text' | 'empty',
  ) {
    super(`Refused ${detected.contentType} (${reason})`);
  }
}

/**
 * Passes a file's bytes on after deciding its type from the first SNIFF_BYTES (held back only that
 * long), and keeps checking text formats to the end. Refused files throw before any byte is passed.
 * When the consumer stops early, the rest of the source is discarded rather than destroyed, so the
 * request it comes from can still be read to its end (and the client gets its answer).
 */
export async function* sniffed(
  source: Readable,
  fileName: string,
  onDetected: (d: Detected) => void,
): AsyncGenerator<Buffer> {
  const it = source.iterator({ destroyOnReturn: false });
  let done = false;
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    while (length < SNIFF_BYTES) {
      const r = await it.next();
      if (r.done) {
        done = true;
        break;
      }
      const chunk = Buffer.from(r.value as Uint8Array);
      chunks.push(chunk);
      length += chunk.length;
    }
    const head = Buffer.concat(chunks);
    if (head.length === 0)
      throw new RefusedContentError(refused('application/x-empty', 'empty file'), 'empty');
    const detected = detectContentType(head, fileName, done);
    if (!detected.allowed) throw new RefusedContentError(detected, 'type');
    onDetected(detected);
    const check = detected.utf8 ? utf8Checker() : undefined;
    if (check && !check.push(head)) throw new RefusedContentError(detected, 'text');
    yield head;
    while (!done) {
      const r = await it.next();
      if (r.done) {
        done = true;
        break;
      }
      const chunk = r.value as Buffer;
      if (check && !check.push(chunk)) throw new RefusedContentError(detected, 'text');
      yield chunk;
    }
    if (check && !check.end()) throw new RefusedContentError(detected, 'text');
  } finally {
    if (!done) {
      await it.return?.();
      source.on('data', () => {});
      source.resume();
    }
  }
}
