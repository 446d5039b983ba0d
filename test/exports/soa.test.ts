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
      effectiveDate: null,
      expiresAt: null,
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
        effectiveDate: null,
        expiresAt: null,
      },
    ];
    for (const format of ['json', 'csv', 'markdown', 'pdf'] as const) {
      const { body } = await renderSoa(data, format);
      // A table cell may wrap the location; the PDF's text is compared without line breaks.
      const text = format === 'pdf' ? (await pdfText(body)).text.replace(/\s+/g, '') : String(body);
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
      asOf: data.snapshot?.createdAt,
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
      note: source.note,
      evidence: source.evidence.map(
        ({ evidenceId, type, title, description, fileUrl, createdAt, effectiveDate, expiresAt }) => ({
          evidenceId,
          type,
          title,
          description,
          fileUrl,
          createdAt,
          effectiveDate,
          expiresAt,
          expired: false,
        }),
      ),
      evidenceCount: source.evidenceCount,
      evidenceExpired: false,
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
      'Report *draft* | v2 (link, files.example.com/a|b c, added 2026-11-01); and 11 more',
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
  it('has the header and a table whose rows keep eleven columns whatever the text', async () => {
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
      // Unescaped pipes delimit cells: twelve of them make eleven columns.
      expect(row.replace(/\\\\/g, '').match(/(?<!\\)\|/g)).toHaveLength(12);
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
      'Report \\*draft\\* \\| v2 (link, [files.example.com/a\\|b c](<https://files.example.com/a%7Cb%20c>), added 2026-11-01)<br>and 11 more',
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
    expect(text).toMatch(/Snapshot\s+Audit 2026 \(snap-1\)/);
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
    // As many of the 500 items as the cell holds are listed; the count says how many are not.
    const listed = text.match(/• [a-z]+ \d+ for A\.2\.2/g)?.length ?? 0;
    expect(listed).toBeGreaterThan(0);
    expect(text).toContain(`and ${500 - listed} more`);
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
    // A narrow cell may wrap a word without spaces (Chinese, Japanese) across lines.
    const unwrapped = text.replace(/\s+/g, '');
    for (const word of ['東京', '🚀', 'AI', '本组织不处理个人数据', '✅', '情報セキュリティ方針', '📄']) {
      expect(unwrapped).toContain(word);
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

/** The Markdown table row of a control. */
const markdownRow = (markdown: string, controlId: string) =>
  markdown.split('\n').find((line) => line.startsWith(`| ${controlId} |`)) ?? '';

/** The CSV records, by control id. */
function csvRecords(body: string | Buffer): Map<string, Record<string, string>> {
  const records = parse(String(body), { columns: true }) as Record<string, string>[];
  return new Map(records.map((record) => [record.controlId, record]));
}

/** Every format of the statement, the PDF as its extracted text. */
async function allFormats(data: OrgExportData) {
  const json = JSON.parse((await renderSoa(data, 'json')).body as string);
  const csv = csvRecords((await renderSoa(data, 'csv')).body);
  const markdown = (await renderSoa(data, 'markdown')).body as string;
  const pdf = (await pdfText((await renderSoa(data, 'pdf')).body)).text;
  return { json, csv, markdown, pdf };
}

/** Text without white space, to find what a table cell may have wrapped. */
const squash = (text: string) => text.replace(/\s+/g, '');

const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('evidence expiry in the statement', () => {
  /** A.2.3 (index 1, applicable, in progress) gets three items: expired, expiring exactly at as-of, current. */
  function expiryData(options: { snapshot?: boolean } = {}): OrgExportData {
    const data = exportData({ evidenceFor: () => 0, snapshot: options.snapshot });
    const control = data.controls[1];
    const item = (id: string, title: string, expiresAt: string | null) => ({
      evidenceId: id,
      controlId: control.controlId,
      type: 'document' as const,
      title,
      description: null,
      fileUrl: `https://files.example.com/policies/${id}.pdf`,
      createdAt: '2026-05-01T08:00:00.000Z',
      effectiveDate: null,
      expiresAt,
    });
    control.evidence = [
      item('old', 'Old model card', '2026-11-01T00:00:00.000Z'),
      item('edge', 'Edge review', data.generatedAt),
      item('new', 'Current model card', '2027-05-01T00:00:00.000Z'),
      { ...item('forever', 'Board minutes', null), effectiveDate: '2026-04-15T00:00:00.000Z' },
    ];
    control.evidenceCount = 4;
    return data;
  }

  it('shows each item’s expiry and marks the expired ones as of the as-of time, in every format', async () => {
    const data = expiryData();
    const { json, csv, markdown, pdf } = await allFormats(data);
    expect(json.asOf).toBe(data.generatedAt);
    const row = json.controls[1];
    expect(
      row.evidence.map((e: { evidenceId: string; expiresAt: string | null; expired: boolean }) => [
        e.evidenceId,
        e.expiresAt,
        e.expired,
      ]),
    ).toEqual([
      ['old', '2026-11-01T00:00:00.000Z', true],
      // Expired from the instant its expiry is reached, as the gate and coverage count it.
      ['edge', data.generatedAt, true],
      ['new', '2027-05-01T00:00:00.000Z', false],
      ['forever', null, false],
    ]);
    const expected = [
      'EXPIRED 2026-11-01: Old model card (document, files.example.com/policies/old.pdf, added 2026-05-01)',
      'EXPIRED 2026-11-22: Edge review (document, files.example.com/policies/edge.pdf, added 2026-05-01)',
      'Current model card (document, files.example.com/policies/new.pdf, added 2026-05-01, expires 2027-05-01)',
      'Board minutes (document, files.example.com/policies/forever.pdf, effective 2026-04-15)',
    ];
    expect(csv.get('A.2.3')?.evidenceReferences).toBe(expected.join('; '));
    const markdownCell = markdownRow(markdown, 'A.2.3');
    expect(markdownCell).toContain('**EXPIRED 2026-11-01:** Old model card (document, [files.example.com');
    expect(markdownCell).toContain('**EXPIRED 2026-11-22:** Edge review');
    expect(markdownCell).toContain('Current model card (document, [files.example.com/policies/new.pdf]');
    expect(markdownCell).toContain('added 2026-05-01, expires 2027-05-01)');
    expect(markdownCell).not.toMatch(/(?<!\*\*EXPIRED 2026-11-\d\d:\*\* )(Old model card|Edge review)/);
    // Cells wrap lines anywhere a break is allowed: compared without white space.
    for (const line of expected) expect(squash(pdf)).toContain(squash(`• ${line}`));
  });

  it('judges expiry at the snapshot’s time for a snapshot, not when the statement is generated', async () => {
    const data = expiryData({ snapshot: true });
    // Taken on 21 November: the item expiring on the 22nd was current then.
    const { json, csv } = await allFormats(data);
    expect(json.asOf).toBe('2026-11-21T17:30:00.000Z');
    expect(json.controls[1].evidence.map((e: { expired: boolean }) => e.expired)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(csv.get('A.2.3')?.evidenceReferences).toContain(
      '; Edge review (document, files.example.com/policies/edge.pdf, added 2026-05-01, expires 2026-11-22);',
    );
    expect(csv.get('A.2.3')?.asOf).toBe('2026-11-21T17:30:00.000Z');
  });

  it('says so when all of an implemented control’s evidence has expired; an excluded control stays Excluded', async () => {
    const data = exportData();
    const implemented = data.controls.find((c) => c.applicable && c.status === 'implemented');
    const excluded = data.controls.find((c) => !c.applicable && c.status === 'implemented');
    if (!implemented || !excluded) throw new Error('the factory has both');
    implemented.evidenceExpired = true;
    excluded.evidenceExpired = true;
    excluded.note = 'Kept running although excluded.';
    const { json, csv, markdown, pdf } = await allFormats(data);
    const jsonRow = (id: string) => json.controls.find((c: { controlId: string }) => c.controlId === id);
    expect(jsonRow(implemented.controlId).evidenceExpired).toBe(true);
    expect(csv.get(implemented.controlId)?.evidenceExpired).toBe('true');
    expect(markdownRow(markdown, implemented.controlId)).toContain('| Implemented (all evidence expired) |');
    expect(markdownRow(markdown, excluded.controlId)).toContain(
      '| Excluded | Kept running although excluded. |',
    );
    expect(pdf.match(/all evidence\s+expired/g)).toHaveLength(1);
    expect(pdf.match(/Excluded/g)?.length).toBe(data.controls.filter((c) => !c.applicable).length);
  });
});

describe('the note recorded with a status', () => {
  it('is carried in every format, excluded controls included', async () => {
    const data = exportData();
    const [first] = data.controls;
    first.note = 'Approved by the AI board on 3 March; see minutes | item 4.';
    const excluded = data.controls.find((c) => !c.applicable);
    if (!excluded) throw new Error('the factory excludes some controls');
    excluded.note = '=Not relevant while we run no model in-house.';
    const { json, csv, markdown, pdf } = await allFormats(data);
    expect(json.controls[0].note).toBe(first.note);
    expect(json.controls[1].note).toBeNull();
    expect(csv.get(first.controlId)?.note).toBe(first.note);
    expect(csv.get(excluded.controlId)?.note).toBe(`'${excluded.note}`);
    expect(csv.get(data.controls[1].controlId)?.note).toBe('');
    const header = markdown.split('\n').find((line) => line.startsWith('| Control |'));
    expect(header).toBe(
      '| Control | Domain | Title | Applicable | Justification | Risks | Status | Note | Evidence | Reviewer | Last update |',
    );
    expect(markdownRow(markdown, first.controlId)).toContain(
      '| Approved by the AI board on 3 March; see minutes \\| item 4. |',
    );
    expect(markdownRow(markdown, excluded.controlId)).toContain(
      '| Excluded | \\=Not relevant while we run no model in-house. |',
    );
    expect(pdf).toMatch(/Status\s+Note\s+Evidence/);
    expect(squash(pdf)).toContain(squash('Approved by the AI board on 3 March; see minutes | item 4.'));
  });

  it('is empty in a snapshot taken before snapshots froze notes, and a note says so', async () => {
    const data = exportData({ snapshot: true });
    for (const control of data.controls) control.note = null;
    const { json, markdown } = await allFormats(data);
    expect(json.notes).toContain(
      'Notes recorded with statuses are not part of this statement: this snapshot was taken before snapshots froze them.',
    );
    expect(markdown).toContain('- **Note:** Notes recorded with statuses are not part of this statement');
  });

  it('is carried from a snapshot that froze it, without the note saying it is missing', async () => {
    const data = exportData({ snapshot: true });
    data.snapshotHasNotes = true;
    const [first] = data.controls;
    first.note = 'Frozen with the status.';
    const { json, markdown } = await allFormats(data);
    expect(json.controls[0].note).toBe('Frozen with the status.');
    expect(json.notes.join(' ')).not.toContain('Notes recorded with statuses');
    expect(markdown).not.toContain('Notes recorded with statuses');
  });
});

describe('the title page and the approval block', () => {
  it('names the org, the as-of time, the snapshot with its hash, the framework and who prepared it', async () => {
    const data = exportData({ snapshot: true });
    data.exportedBy = { type: 'user', name: 'Alice Martin', email: 'alice@acme.example', role: 'owner' };
    const { json, markdown, pdf } = await allFormats(data);
    expect(json).toMatchObject({
      orgId: 'acme',
      orgName: 'Acme AI Ltd.',
      asOf: '2026-11-21T17:30:00.000Z',
      framework: 'ISO/IEC 42001:2023 Annex A',
      snapshot: { label: 'Audit 2026', contentHash: 'cd'.repeat(32) },
      exportedBy: data.exportedBy,
      approval: {
        preparedBy: { name: 'Alice Martin', role: 'owner', date: data.generatedAt },
        reviewedBy: { name: null, role: null, date: null },
        approvedBy: { name: null, role: null, date: null },
      },
    });
    expect(markdown).toContain('- **As of:** 2026-11-21T17:30:00.000Z (the snapshot)');
    expect(markdown).toContain(`content hash ${'cd'.repeat(32)}`);
    expect(markdown).toContain('- **Exported by:** Alice Martin \\<alice@acme.example\\> (owner)');
    expect(markdown).toContain(
      [
        '## Approval',
        '',
        '|  | Name | Role | Date | Signature |',
        '| --- | --- | --- | --- | --- |',
        '| Prepared by | Alice Martin | owner | 2026-11-22 |  |',
        '| Reviewed by |  |  |  |  |',
        '| Approved by |  |  |  |  |',
      ].join('\n'),
    );
    // The title page is the first page: everything an auditor checks before the table.
    const titlePage = pdf.split(/-- 1 of \d+ --/)[0];
    for (const expected of [
      'Statement of Applicability',
      'ISO/IEC 42001:2023 Annex A',
      'Acme AI Ltd.',
      'Organization id: acme',
      '2026-11-21 17:30 UTC (when the snapshot was taken)',
      'Audit 2026 (snap-1)',
      `SHA-256 ${'cd'.repeat(32)}`,
      'Alice Martin <alice@acme.example>, owner',
      'Approval',
      'Prepared by',
      'Reviewed by',
      'Approved by',
      'Signature',
    ]) {
      expect(titlePage, expected).toContain(expected);
    }
    expect(titlePage).toMatch(/Prepared by\s+Alice Martin\s+owner\s+2026-11-22/);
    expect(titlePage).not.toContain('Control Domain Title');
  });

  it('leaves the approval blank when a key or an auditor exports it', async () => {
    const blank = { name: null, role: null, date: null };
    for (const exportedBy of [
      { type: 'key' as const, name: 'ci', email: null, role: null },
      { type: 'user' as const, name: 'Eve Auditor', email: 'eve@audit.example', role: 'auditor' },
      undefined,
    ]) {
      const data = exportData();
      data.exportedBy = exportedBy;
      const { json, markdown } = await allFormats(data);
      expect(json.approval, exportedBy?.name).toEqual({
        preparedBy: blank,
        reviewedBy: blank,
        approvedBy: blank,
      });
      expect(json.exportedBy).toEqual(exportedBy ?? null);
      expect(markdown).toContain('| Prepared by |  |  |  |  |');
    }
  });
});

describe('evidence cells', () => {
  it('read as title, type, location and dates, never as a bare id', async () => {
    const data = exportData({ evidenceFor: () => 0 });
    const control = data.controls[0];
    const attestationId = '0f8c6b7e-1d2a-4c3b-9a8f-123456789abc';
    control.evidence = [
      {
        evidenceId: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
        controlId: control.controlId,
        type: 'attestation',
        title: `L2 attestation ${attestationId}`,
        description: 'Epoch 2026-11-20, AI system 7d444840-9dc0-11d1-b245-5ffdce74fad2',
        fileUrl: null,
        createdAt: '2026-11-20T09:00:00.000Z',
        effectiveDate: '2026-11-20T08:59:00.000Z',
        expiresAt: '2027-02-18T08:59:00.000Z',
      },
      {
        evidenceId: '9b2f3c1e-0000-4000-8000-000000000001',
        controlId: control.controlId,
        type: 'document',
        title: 'Data protection impact assessment',
        description: null,
        fileUrl: 'https://docs.example.com/dpia/2026.pdf?token=secret#page=2',
        createdAt: '2026-10-02T09:00:00.000Z',
        effectiveDate: null,
        expiresAt: null,
      },
      {
        evidenceId: '9b2f3c1e-0000-4000-8000-000000000002',
        controlId: control.controlId,
        type: 'document',
        title: 'Model card',
        description: null,
        fileUrl: 's3://evidence-bucket/9b2f3c1e-0000-4000-8000-000000000002/model-card.pdf',
        createdAt: '2026-10-03T09:00:00.000Z',
        effectiveDate: null,
        expiresAt: null,
      },
    ];
    control.evidenceCount = 3;
    const { json, csv, markdown, pdf } = await allFormats(data);
    // The ids stay members of the JSON statement.
    expect(json.controls[0].evidence.map((e: { evidenceId: string }) => e.evidenceId)).toEqual(
      control.evidence.map((e) => e.evidenceId),
    );
    const cell = csv.get(control.controlId)?.evidenceReferences ?? '';
    expect(cell).toBe(
      [
        'L2 attestation 0f8c6b7e… (attestation, effective 2026-11-20, expires 2027-02-18)',
        'Data protection impact assessment (document, docs.example.com/dpia/2026.pdf, added 2026-10-02)',
        'Model card (document, model-card.pdf, added 2026-10-03)',
      ].join('; '),
    );
    const markdownCell = markdownRow(markdown, control.controlId).split(' | ')[8];
    expect(markdownCell).toContain(
      '[docs.example.com/dpia/2026.pdf](<https://docs.example.com/dpia/2026.pdf?token=secret#page=2>)',
    );
    expect(markdownCell.replace(/\(<https:[^>]+>\)/g, '')).not.toMatch(UUID_PATTERN);
    expect(cell).not.toMatch(UUID_PATTERN);
    expect(pdf).not.toMatch(UUID_PATTERN);
    expect(squash(pdf)).toContain(squash('• Model card (document, model-card.pdf, added 2026-10-03)'));
  });
});
