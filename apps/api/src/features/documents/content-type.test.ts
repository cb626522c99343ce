import { Readable } from 'node:stream';
import { sanitizeFileName } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { detectContentType, RefusedContentError, SNIFF_BYTES, sniffed } from './content-type.ts';
import { contentDisposition } from './documents.routes.ts';
import { minimalPdf } from './seed-documents.ts';

async function zipOf(entries: [string, string][]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of entries) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const detect = (bytes: Buffer | string, name = 'file') =>
  detectContentType(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, name, true);

function ole(streamName: string): Buffer {
  const b = Buffer.alloc(2048);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(b);
  Buffer.from(streamName, 'utf16le').copy(b, 1024);
  return b;
}

describe('content type from the bytes', () => {
  it('knows the allowed formats by their magic numbers', () => {
    expect(detect(minimalPdf('x')).contentType).toBe('application/pdf');
    expect(detect(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])).contentType).toBe(
      'image/png',
    );
    expect(detect(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])).contentType).toBe('image/jpeg');
    expect(detect('GIF89a\x01\x00').contentType).toBe('image/gif');
    expect(detect('RIFF\x10\x00\x00\x00WEBPVP8 ').contentType).toBe('image/webp');
    expect(detect(Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0])).contentType).toBe('image/tiff');
    expect(detect(Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8])).contentType).toBe('image/tiff');
    for (const d of [minimalPdf('x'), Buffer.from('GIF87a')]) expect(detect(d).allowed).toBe(true);
  });

  it('tells Office Open XML documents from other ZIP files by their parts', async () => {
    const types = '<?xml version="1.0"?><Types/>';
    expect(
      detect(
        await zipOf([
          ['[Content_Types].xml', types],
          ['word/document.xml', '<w/>'],
        ]),
      ).contentType,
    ).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(
      detect(
        await zipOf([
          ['[Content_Types].xml', types],
          ['xl/workbook.xml', '<x/>'],
        ]),
      ).contentType,
    ).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(
      detect(
        await zipOf([
          ['[Content_Types].xml', types],
          ['ppt/presentation.xml', '<p/>'],
        ]),
        'deck.pptx',
      ).contentType,
    ).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    // Parts beyond the bytes seen: the name decides between the three.
    expect(detect(await zipOf([['[Content_Types].xml', types]]), 'report.xlsx').contentType).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const plain = detect(await zipOf([['evil.exe', 'MZ']]), 'invoice.docx');
    expect(plain).toMatchObject({ contentType: 'application/zip', allowed: false });
    const macro = detect(
      await zipOf([
        ['[Content_Types].xml', types],
        ['word/document.xml', '<w/>'],
        ['word/vbaProject.bin', 'x'],
      ]),
      'a.docm',
    );
    expect(macro).toMatchObject({ allowed: false, contentType: 'application/vnd.ms-office.vbaProject' });
  });

  it('tells legacy Office files apart by their OLE stream names, or by the name', () => {
    expect(detect(ole('WordDocument')).contentType).toBe('application/msword');
    expect(detect(ole('Workbook')).contentType).toBe('application/vnd.ms-excel');
    expect(detect(ole('PowerPoint Document')).contentType).toBe('application/vnd.ms-powerpoint');
    expect(detect(ole('__substg1.0_0037001F')).contentType).toBe('application/vnd.ms-outlook');
    expect(detect(ole('Other'), 'old.xls').contentType).toBe('application/vnd.ms-excel');
    expect(detect(ole('Other'), 'thing.bin')).toMatchObject({
      allowed: false,
      contentType: 'application/x-ole-storage',
    });
  });

  it('accepts XML, CSV and e-mail; refuses HTML, SVG, plain text and binaries', () => {
    expect(detect('<?xml version="1.0"?><Invoice/>').contentType).toBe('application/xml');
    expect(detect('\uFEFF<?xml version="1.0"?><a/>').contentType).toBe('application/xml');
    expect(detect(Buffer.from('\uFEFF<?xml version="1.0"?><a/>', 'utf16le')).contentType).toBe(
      'application/xml',
    );
    expect(detect('<CrossIndustryInvoice xmlns="urn:x"/>', 'zugferd.xml').contentType).toBe(
      'application/xml',
    );
    expect(detect('<CrossIndustryInvoice xmlns="urn:x"/>', 'zugferd.txt').allowed).toBe(false);
    expect(detect('a;b\n1;2\n', 'x.csv')).toMatchObject({ contentType: 'text/csv', utf8: true });
    expect(detect('a;b\n1;2\n', 'x.txt')).toMatchObject({ contentType: 'text/plain', allowed: false });
    expect(
      detect('Received: from x\r\nFrom: "A" <a@b>\r\nSubject: =?utf-8?q?BL?=\r\n  folded\r\n\r\nbody')
        .contentType,
    ).toBe('message/rfc822');
    // 8-bit bodies in a legacy charset are still mail.
    expect(detect(Buffer.from('From: a@b\nTo: c@d\n\ncaf\xe9', 'latin1')).contentType).toBe('message/rfc822');
    expect(detect('Subject: only one header\n\nbody', 'x.eml').allowed).toBe(false);
    expect(detect('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')).toMatchObject({
      allowed: false,
      contentType: 'image/svg+xml',
    });
    expect(detect('<!-- x -->\n<html><body>x</body></html>', 'a.xml')).toMatchObject({
      allowed: false,
      contentType: 'text/html',
    });
    expect(detect(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2])).contentType).toBe('application/x-executable');
    expect(detect('MZ\x90\x00').contentType).toBe('application/vnd.microsoft.portable-executable');
    expect(detect(Buffer.from([0x1f, 0x8b, 8])).contentType).toBe('application/gzip');
    expect(detect('#!/bin/sh\nrm -rf /', 'x.csv').allowed).toBe(false);
    expect(detect(Buffer.from([0, 1, 2, 3]), 'x.csv').contentType).toBe('application/octet-stream');
  });

  it('refuses SVG and (X)HTML roots whatever their prefix, namespace or prolog', () => {
    const svg = { allowed: false, contentType: 'image/svg+xml' };
    const xhtml = { allowed: false, contentType: 'application/xhtml+xml' };
    const cases: [string, object][] = [
      ['<x:svg xmlns:x="http://www.w3.org/2000/svg"><x:script>alert(1)</x:script></x:svg>', svg],
      ['<?xml version="1.0"?><x:svg xmlns:x="http://www.w3.org/2000/svg"/>', svg],
      ['<?xml version="1.0"?>\n<!-- c -->\n<svg xmlns="http://www.w3.org/2000/svg"/>', svg],
      [
        '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<!-- c --><svg/>',
        svg,
      ],
      ['<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]><SVG xmlns="http://www.w3.org/2000/svg"/>', svg],
      // An unknown local name in the SVG namespace is still rendered as SVG.
      ['<?xml version="1.0"?><a xmlns="http://www.w3.org/2000/svg"><script>x</script></a>', svg],
      ['<?xml version="1.0"?><h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:body/></h:html>', xhtml],
      ['<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', xhtml],
      ['<?xml version="1.0"?><x:html xmlns:x="urn:other"/>', xhtml],
      // Script in the XHTML namespace runs inside any XML document a browser renders.
      ['<?xml version="1.0"?><Invoice><s:script xmlns:s="http://www.w3.org/1999/xhtml"/></Invoice>', xhtml],
    ];
    for (const [doc, expected] of cases) {
      expect(detect(doc, 'invoice.xml'), doc).toMatchObject(expected);
      expect(detect(Buffer.from(`\uFEFF${doc}`, 'utf16le'), 'invoice.xml'), doc).toMatchObject({
        allowed: false,
      });
    }
    expect(detect('<!DOCTYPE html>\n<p>x', 'a.xml')).toMatchObject({
      allowed: false,
      contentType: 'text/html',
    });
    // Ordinary namespaced XML (UBL, CII) stays accepted.
    expect(
      detect(
        '<?xml version="1.0"?><!-- ubl --><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:cbc"><cbc:ID>1</cbc:ID></Invoice>',
        'invoice.xml',
      ),
    ).toMatchObject({ allowed: true, contentType: 'application/xml' });
    expect(detect('<rsm:CrossIndustryInvoice xmlns:rsm="urn:cii"/>', 'zugferd.xml').allowed).toBe(true);
  });

  it('does not mistake a multi-byte character cut at the end of the head for invalid UTF-8', () => {
    const head = Buffer.from(`a,b\n${'ä'.repeat(10)}`).subarray(0, -1);
    expect(detectContentType(head, 'x.csv', false).contentType).toBe('text/csv');
    expect(detectContentType(head, 'x.csv', true).allowed).toBe(false);
  });
});

describe('sniffed streams', () => {
  async function drain(it: AsyncIterable<Buffer>): Promise<Buffer> {
    const out: Buffer[] = [];
    for await (const c of it) out.push(c);
    return Buffer.concat(out);
  }

  it('passes every byte on unchanged after the type is known', async () => {
    const body = Buffer.concat([minimalPdf('x'), Buffer.alloc(SNIFF_BYTES * 3, 1)]);
    let type = '';
    const out = await drain(
      sniffed(
        Readable.from([body.subarray(0, 10), body.subarray(10, 70_000), body.subarray(70_000)]),
        'a.pdf',
        (d) => {
          type = d.contentType;
        },
      ),
    );
    expect(type).toBe('application/pdf');
    expect(out.equals(body)).toBe(true);
  });

  it('refuses a CSV whose bytes stop being UTF-8 after the head, and leaves the source readable', async () => {
    const good = Buffer.from(`a,b\n${'1,2\n'.repeat(SNIFF_BYTES / 2)}`);
    const source = Readable.from([good, Buffer.from([0xc3, 0x28]), Buffer.from('more')]);
    const err = await drain(sniffed(source, 'x.csv', () => {})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedContentError);
    expect((err as RefusedContentError).reason).toBe('text');
    expect(source.destroyed).toBe(false);
  });
});

describe('file names', () => {
  it('keeps the last path segment without control, bidi-override or quote characters', () => {
    expect(sanitizeFileName('../../etc/passwd"\r\n.pdf')).toBe('passwd.pdf');
    expect(sanitizeFileName('C:\\Users\\me\\Rechnung 1.pdf')).toBe('Rechnung 1.pdf');
    expect(sanitizeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFileName('...hidden')).toBe('hidden');
    expect(sanitizeFileName('/')).toBe('document');
    expect(sanitizeFileName(`${'a'.repeat(300)}.pdf`)).toBe(`${'a'.repeat(196)}.pdf`);
  });

  it('writes Content-Disposition with an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('Überweisung.pdf', false)).toBe(
      `attachment; filename="Uberweisung.pdf"; filename*=UTF-8''%C3%9Cberweisung.pdf`,
    );
    expect(contentDisposition("it's (1).pdf", true)).toBe(
      `inline; filename="it's (1).pdf"; filename*=UTF-8''it%27s%20%281%29.pdf`,
    );
    const nasty = contentDisposition('a"\r\nSet-Cookie: x=1;\\..%2F.pdf', false);
    expect(nasty).not.toMatch(/[\r\n]/);
    expect(nasty).toBe(
      `attachment; filename="a___Set-Cookie: x=1;_.._2F.pdf"; filename*=UTF-8''a%22%0D%0ASet-Cookie%3A%20x%3D1%3B_..%252F.pdf`,
    );
  });
});
