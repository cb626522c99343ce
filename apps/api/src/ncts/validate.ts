import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

/**
 * Validates an NCTS message against the official schema its root element names (`CC015C` →
 * `xsd/cc015c.xsd`), with libxml2's validator compiled to WebAssembly (xmllint-wasm: the same
 * libxml2 as Debian's `xmllint`, which CI's check of test-results/ncts runs; no native build, ADR 0066).
 * The schemas are read once and kept; each call runs xmllint in a worker thread.
 */
const XSD_DIR = path.join(import.meta.dirname, 'xsd');
/** The type files every message schema includes, directly or through another. */
const SHARED = ['ctypes.xsd', 'htypes.xsd', 'stypes.xsd', 'tcl.xsd', 'doc.xsd', 'ermis-types.xsd'];

export interface NctsValidation {
  /** The message type the root element names, lower case (`cc015c`), or null when there is none. */
  messageType: string | null;
  valid: boolean;
  /** One line a problem: `line N: what libxml2 says`. */
  errors: string[];
}

const files = new Map<string, Promise<string>>();
function xsd(name: string): Promise<string> {
  let file = files.get(name);
  if (!file) {
    file = readFile(path.join(XSD_DIR, name), 'utf8');
    files.set(name, file);
  }
  return file;
}

/** The root element's local name: `<ncts:CC015C …>` → `cc015c`. */
export function rootMessageType(xml: string): string | null {
  const m = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z][\w.-]*)[\s>/]/.exec(
    xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''),
  );
  return m?.[1] ? m[1].toLowerCase() : null;
}

export async function validateNcts(xml: string): Promise<NctsValidation> {
  const messageType = rootMessageType(xml);
  if (!messageType || !/^c[cd]\d{3}c$/.test(messageType))
    return {
      messageType,
      valid: false,
      errors: [`no NCTS message type in the root element (${messageType ?? 'none'})`],
    };
  let schema: string;
  try {
    schema = await xsd(`${messageType}.xsd`);
  } catch {
    files.delete(`${messageType}.xsd`);
    return { messageType, valid: false, errors: [`no NCTS schema for ${messageType.toUpperCase()}`] };
  }
  const result = await validateXML({
    xml: [{ fileName: 'message.xml', contents: xml }],
    schema: [{ fileName: `${messageType}.xsd`, contents: schema }],
    preload: await Promise.all(SHARED.map(async (name) => ({ fileName: name, contents: await xsd(name) }))),
  });
  return {
    messageType,
    valid: result.valid,
    errors: result.errors.map((e) => (e.loc ? `line ${e.loc.lineNumber}: ${e.message}` : e.message)),
  };
}
