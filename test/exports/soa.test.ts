import { parse } from 'csv-parse/sync';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import type { OrgExportData } from '../../src/features/exports/export.types.js';
import {
  fontRuns,
  guardCsvCell,
  renderSoa,
  SOA_CSV_COLUMNS,
  UnknownSoaFormatError,
} from '../../src/features/exports/soa/index.js';
import { escapeMarkdownCell } from '../../src/shared/markdown.js';
import { exportData } from './export-data.factory.js';

const CONTROL_COUNT = 38;

async function pdfText(body: string | Buffer): Promise<{ text: string; pages: number }> {
  const parser = new PDFParse({ data: new Uint8Array(body as Buffer) });
  try {
    const result = await parser.getText();
    return { text: result.text, pages: result.total };
  } finally {
    await parser.destroy();
  }
}

/** Data whose texts try every trick on the CSV and Markdown writers. */
function trickyData(): OrgExportData {
  const data = exportData({ snapshot: true });
  data.org.name = 'Acme | *AI* Ltd.';
  const [first, second, third, fourth] = data.controls;
  first.justification = '=HYPERLINK("https://evil.example","click")';
  first.reviewer = '@admin';
  second.justification = '+1, "quoted", and\r\na second line';
  second.reviewer = '-2+3';
  third.justification = '\tcmd|/c calc';
  third.title = 'Pipes | and \\ backslashes';
  fourth.justification =
    '# not a heading\n- not a list\n1. not ordered\n<script>alert(1)</script> [x](javascript:y)';
  fourth.evidence = [
    {
      evidenceId: 'ev-x',
      controlId: fourth.controlId,
      type: 'link',
      title: 'Report *draft* | v2',
      description: null,
      fileUrl: 'https://files.example.com/a|b c',
      createdAt: '2026-11-01T00:00:00.000Z',
    },
  ];
  fourth.evidenceCount = 12;
  return data;
}

describe('renderSoa', () => {
  it('leaves out credentials in an evidence URL stored before they were refused, in every format', async () => {
    const data = exportData();
    data.controls[0].evidence = [
      {
        evidenceId: 'ev-creds',
        controlId: data.controls[0].controlId,
        type: 'link',
        title: 'Signed policy',
        description: null,
        fileUrl: 'https://alice:s3cret@files.example/p.pdf',
        createdAt: '2026-11-01T00:00:00.000Z',
      },
    ];
    for (const format of ['json', 'csv', 'markdown', 'pdf'] as const) {
      const { body } = await renderSoa(data, format);
      const text = format === 'pdf' ? (await pdfText(body)).text : String(body);
      expect(text, format).toContain('files.example/p.pdf');
      expect(text, format).not.toMatch(/s3cret|alice:|alice@files/);
    }
  });

  it('defaults to JSON and rejects an unknown format with a typed error', async () => {
    const data = exportData();
    expect((await renderSoa(data)).format).toBe('json');
    await expect(renderSoa(data, 'xml')).rejects.toBeInstanceOf(UnknownSoaFormatError);
    await expect(renderSoa(data, 'XML')).rejects.toThrow(/use one of json, csv, markdown, pdf/);
    await expect(renderSoa(data, 42)).rejects.toBeInstanceOf(UnknownSoaFormatError);
  });

  it('names the file after the org, the date and the snapshot, with a safe Content-Disposition', async () => {
    const data = exportData({ snapshot: true });
    data.org.orgId = 'acme "corp"/x';
    const document = await renderSoa(data, 'markdown');
    expect(document.fileName).toBe('soa-acme-corp-x-2026-11-22-Audit-2026.md');
    expect(document.contentDisposition).toBe(
      'attachment; filename="soa-acme-corp-x-2026-11-22-Audit-2026.md"',
    );
    expect(document.contentType).toBe('text/markdown; charset=utf-8');
  });
});

describe('SoA as JSON', () => {
  it('holds the header and every control with its SoA columns', async () => {
    const data = exportData({ snapshot: true });
    const document = await renderSoa(data, 'json');
    expect(document.contentType).toBe('application/json; charset=utf-8');
    const soa = JSON.parse(document.body as string);
    expect(soa).toMatchObject({
      framework: 'ISO/IEC 42001:2023 Annex A',
      orgId: 'acme',
      orgName: data.org.name,
      generatedAt: data.generatedAt,
      score: data.score,
      counts: data.counts,
      snapshot: data.snapshot,
    });
    expect(soa.controls).toHaveLength(CONTROL_COUNT);
    expect(soa.controls.map((c: { controlId: string }) => c.controlId).slice(-3)).toEqual([
      'A.10.2',
      'A.10.3',
      'A.10.4',
    ]);
    const source = data.controls[3];
    expect(soa.controls[3]).toEqual({
      controlId: source.controlId,
      domain: source.domain,
      domainTitle: source.domainTitle,
      title: source.title,
      applicable: false,
      justification: source.justification,
      justificationSource: 'officer',
      risks: null,
      status: source.status,
      evidence: source.evidence.map(({ evidenceId, type, title, fileUrl }) => ({
        evidenceId,
        type,
        title,
        fileUrl,
      })),
      evidenceCount: source.evidenceCount,
      reviewer: source.reviewer,
      updatedAt: source.updatedAt,
    });
  });
});

describe('SoA as CSV', () => {
  it('parses back per RFC 4180 into one record per control', async () => {
    const data = trickyData();
    const document = await renderSoa(data, 'csv');
    expect(document.contentType).toMatch(/^text\/csv; charset=utf-8/);
    const body = document.body as string;
    expect(body.split('\r\n')[0]).toBe(SOA_CSV_COLUMNS.join(','));
    const records = parse(body, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
    expect(records).toHaveLength(CONTROL_COUNT);
    expect(records.map((r) => r.controlId)).toEqual(data.controls.map((c) => c.controlId));
    const [first, second, third, fourth] = records;
    expect(second.justification).toBe('\'+1, "quoted", and\r\na second line');
    expect(third.title).toBe('Pipes | and \\ backslashes');
    expect(fourth.evidenceReferences).toBe(
      'Report *draft* | v2 [ev-x] https://files.example.com/a|b c; and 11 more',
    );
    expect(fourth.evidenceCount).toBe('12');
    expect(first).toMatchObject({
      applicable: 'true',
      orgName: 'Acme | *AI* Ltd.',
      snapshotLabel: 'Audit 2026',
    });
    expect(records[3].applicable).toBe('false');
    expect(records[3].justification).toContain('# not a heading');
  });

  it('neutralises cells that a spreadsheet would run as a formula', async () => {
    const records = parse((await renderSoa(trickyData(), 'csv')).body as string, { columns: true }) as Record<
      string,
      string
    >[];
    expect(records[0].justification).toBe('\'=HYPERLINK("https://evil.example","click")');
    expect(records[0].reviewer).toBe("'@admin");
    expect(records[1].reviewer).toBe("'-2+3");
    expect(records[2].justification).toBe("'\tcmd|/c calc");
    for (const record of records) {
      for (const value of Object.values(record)) expect(value).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('guards every formula prefix and leaves other text alone', () => {
    for (const value of ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '\uFF1D1+2']) {
      expect(guardCsvCell(value)).toBe(`'${value}`);
    }
    // Spreadsheets skip leading blanks and line breaks before they look for a formula.
    for (const value of [' =1', '  +1', '\n=HYPERLINK("x")', '\r\n@SUM(A1)', '\u00A0-1', ' \u3000\uFF1D1']) {
      expect(guardCsvCell(value)).toBe(`'${value}`);
    }
    for (const value of ['', 'plain', '1=1', ' a=1', '\nplain', "'quoted", 'A.2.2'])
      expect(guardCsvCell(value)).toBe(value);
  });
});

describe('SoA as Markdown', () => {
  it('has the header and a table whose rows keep ten columns whatever the text', async () => {
    const data = trickyData();
    const document = await renderSoa(data, 'markdown');
    const body = document.body as string;
    expect(body).toContain('# Statement of Applicability');
    expect(body).toContain('- **Organization:** Acme \\| \\*AI\\* Ltd. (acme)');
    expect(body).toContain('- **Snapshot:** Audit 2026 (snap-1)');
    expect(body).toContain(`- **Compliance score:** ${data.score?.toFixed(1)} %`);
    const rows = body.split('\n').filter((line) => line.startsWith('| A.'));
    expect(rows).toHaveLength(CONTROL_COUNT);
    for (const row of rows) {
      // Unescaped pipes delimit cells: eleven of them make ten columns.
      expect(row.replace(/\\\\/g, '').match(/(?<!\\)\|/g)).toHaveLength(11);
      expect(row).not.toMatch(/[\r\n]/);
    }
  });

  it('escapes table syntax, line breaks, backslashes, markup and HTML', async () => {
    const body = (await renderSoa(trickyData(), 'markdown')).body as string;
    const rows = body.split('\n').filter((line) => line.startsWith('| A.'));
    expect(rows[2]).toContain('| Pipes \\| and \\\\ backslashes |');
    expect(rows[1]).toContain('+1, "quoted", and<br>a second line');
    expect(rows[3]).toContain(
      '\\# not a heading<br>\\- not a list<br>1\\. not ordered<br>\\<script\\>alert(1)\\</script\\> \\[x\\](javascript:y)',
    );
    expect(rows[3]).toContain(
      'Report \\*draft\\* \\| v2 \\[ev-x\\] <https://files.example.com/a%7Cb%20c><br>and 11 more',
    );
  });

  it('escapes each kind of cell content', () => {
    expect(escapeMarkdownCell('a|b')).toBe('a\\|b');
    expect(escapeMarkdownCell('a\\|b')).toBe('a\\\\\\|b');
    expect(escapeMarkdownCell('line 1\nline 2\r\nline 3')).toBe('line 1<br>line 2<br>line 3');
    expect(escapeMarkdownCell('`code` *em* _em_ ~~del~~')).toBe(
      '\\`code\\` \\*em\\* \\_em\\_ \\~\\~del\\~\\~',
    );
    expect(escapeMarkdownCell('+ plus')).toBe('\\+ plus');
    expect(escapeMarkdownCell('> quote')).toBe('\\> quote');
    expect(escapeMarkdownCell('2) item')).toBe('2\\) item');
    expect(escapeMarkdownCell('&copy; <b>')).toBe('\\&copy; \\<b\\>');
    expect(escapeMarkdownCell('plain text 1.5')).toBe('plain text 1.5');
  });
});

describe('SoA as PDF', () => {
  it('is a paginated PDF whose text holds the org, the score and every control id', async () => {
    const data = exportData({ snapshot: true });
    const document = await renderSoa(data, 'pdf');
    expect(document.contentType).toBe('application/pdf');
    const body = document.body as Buffer;
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, pages } = await pdfText(body);
    expect(pages).toBeGreaterThanOrEqual(4);
    expect(text).toContain('Statement of Applicability');
    expect(text).toContain(data.org.name);
    expect(text).toContain(`${data.score?.toFixed(1)} %`);
    expect(text).toContain('Snapshot: Audit 2026 (snap-1)');
    expect(text).toContain('Score history');
    expect(text).toContain(`Page 1 of ${pages}`);
    for (const control of data.controls) expect(text).toContain(control.controlId);
    // The table header is repeated on every table page.
    expect(text.match(/Control Domain Title Applicable Justification/g)?.length).toBe(pages - 2);
  });

  it('says Excluded, not a progress status, for a control that does not apply (PDF and Markdown)', async () => {
    const data = exportData();
    const excluded = data.controls.filter((control) => !control.applicable);
    expect(excluded.length).toBeGreaterThan(0);
    const { text } = await pdfText((await renderSoa(data, 'pdf')).body as Buffer);
    expect(text.match(/Excluded/g)?.length).toBe(excluded.length);
    const markdown = (await renderSoa(data, 'markdown')).body as string;
    for (const control of excluded) {
      const row = markdown.split('\n').find((line) => line.startsWith(`| ${control.controlId} |`));
      expect(row, control.controlId).toContain('| Excluded |');
    }
  });

  it('renders Greek and CJK in the org name, long cells and many evidence items', async () => {
    const data = exportData({ evidenceFor: (index) => (index === 0 ? 500 : 1) });
    data.org.name = 'Zürich Ωmega 東京 AI';
    data.history = [];
    data.score = null;
    data.controls[1].justification = 'Long reason. '.repeat(400);
    const { text } = await pdfText((await renderSoa(data, 'pdf')).body);
    expect(text).toContain('Zürich Ωmega 東京 AI');
    expect(text).toContain('and 492 more');
    expect(text).toContain('No score history recorded.');
    expect(text).toContain('n/a (no applicable control)');
  });

  it('draws Hebrew, Chinese, Japanese and emoji from embedded fonts in the name, a justification and an evidence title', async () => {
    const data = exportData();
    data.org.name = 'Acme 東京 AI 🚀 שלום';
    const excluded = data.controls.find((control) => !control.applicable);
    if (!excluded) throw new Error('the factory excludes some controls');
    excluded.justification = 'לא רלוונטי: 本组织不处理个人数据 ✅ out of scope';
    data.controls[1].evidence[0].title = 'מדיניות 情報セキュリティ方針 📄';
    const body = (await renderSoa(data, 'pdf')).body as Buffer;
    const { text } = await pdfText(body);
    for (const word of ['東京', '🚀', 'AI', '本组织不处理个人数据', '✅', '情報セキュリティ方針', '📄']) {
      expect(text).toContain(word);
    }
    // Hebrew is drawn right to left; the extracted text may come out in either order.
    for (const word of ['שלום', 'רלוונטי', 'מדיניות']) {
      expect(text.includes(word) || text.includes([...word].reverse().join(''))).toBe(true);
    }
    expect(text).not.toContain('?');
    const fonts = body.toString('latin1').match(/\/FontName \/[A-Z]{6}\+[\w-]+/g) ?? [];
    expect(new Set(fonts.map((font) => font.split('+')[1]))).toEqual(
      new Set([
        'NotoSans-Regular',
        'NotoSans-Bold',
        'NotoSansHebrew',
        'NotoSansHebrew-Bold',
        'NotoSansHans-Regular',
        'NotoSansHans-Bold',
        'NotoEmoji-Regular',
      ]),
    );
  });

  it('is the same bytes for the same data', async () => {
    const data = exportData({ snapshot: true });
    data.org.name = 'Acme 東京 🚀 שלום';
    const first = (await renderSoa(data, 'pdf')).body as Buffer;
    const second = (await renderSoa(data, 'pdf')).body as Buffer;
    expect(first.equals(second)).toBe(true);
  });

  it('splits text into runs by the font that covers each character', () => {
    const faces = (text: string) => fontRuns(text).map((run) => [run.face, run.text]);
    expect(faces('Café Ωmega Łódź')).toEqual([[0, 'Café Ωmega Łódź']]);
    expect(faces('Acme 東京 🚀 שלום')).toEqual([
      [0, 'Acme '],
      [2, '東京 '],
      [3, '🚀 '],
      [1, 'שלום'],
    ]);
    // Tabs become spaces, line breaks stay, control and format characters go.
    expect(faces('a\tb\nc\u200bd\u0007')).toEqual([[0, 'a b\ncd']]);
    // No face has Korean: a character none covers becomes `?`.
    expect(faces('x 한')).toEqual([[0, 'x ?']]);
  });
});
