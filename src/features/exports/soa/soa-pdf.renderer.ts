import PDFDocument from 'pdfkit';
import { heightOfText, registerFonts, setFont, type TextFont, writeText } from './pdf-fonts.js';
import { drawScoreChart } from './score-chart.js';
import type { SoaRow, SoaSignatory, SoaView } from './soa.types.js';
import {
  checkText,
  evidenceReferenceText,
  justificationText,
  RISKS_NOT_CARRIED,
  scoreText,
  statusText,
} from './soa-view.js';

const MARGIN = 40;
const TABLE_FONT_SIZE = 7.5;
const TABLE_HEADER: TextFont = { style: 'bold', size: TABLE_FONT_SIZE };
const TABLE_CELL: TextFont = { style: 'regular', size: TABLE_FONT_SIZE };
const CELL_PADDING = 3;
/** Evidence items per control in the table, within a character budget; the rest is counted. A row must fit on one page. */
const EVIDENCE_ITEMS = 8;
const EVIDENCE_CHARACTERS = 640;
const CELL_CHARACTERS = 700;
/** Risks per control in the table, each as its id and a short title; the rest are counted. */
const RISK_LINES = 4;
const RISK_TITLE_CHARACTERS = 28;
/** Checks listed on the summary page; the rest are counted (the JSON export has them all). */
const CHECK_LINES = 40;

/** `risk_… Title… (high)`, short enough for the narrow column. */
function risksCell(row: SoaRow): string {
  if (row.risks === null) return RISKS_NOT_CARRIED;
  const lines = row.risks
    .slice(0, RISK_LINES)
    .map(
      (risk) =>
        `${risk.riskId} ${pdfText(risk.title.replace(/\s+/g, ' ').trim(), RISK_TITLE_CHARACTERS)} (${risk.residualLevel})`,
    );
  const rest = row.risks.length - lines.length;
  if (rest > 0) lines.push(`and ${rest} more`);
  return lines.join('\n');
}

/** One bulleted item per evidence reference, as many as the budget holds, then a count of the rest. */
function evidenceCell(row: SoaRow): string {
  const lines: string[] = [];
  let used = 0;
  for (const ref of row.evidence.slice(0, EVIDENCE_ITEMS)) {
    const line = `• ${pdfText(evidenceReferenceText(ref), 300)}`;
    if (lines.length > 0 && used + line.length > EVIDENCE_CHARACTERS) break;
    lines.push(line);
    used += line.length;
  }
  const rest = row.evidenceCount - lines.length;
  if (rest > 0) lines.push(`and ${rest} more`);
  return lines.join('\n');
}

/** `2026-11-01 10:00 UTC` and who reviewed it, in one narrow cell. */
function lastUpdateCell(row: SoaRow): string {
  return row.reviewer ? `${dateTimeText(row.updatedAt)}\nby ${row.reviewer}` : dateTimeText(row.updatedAt);
}

const COLUMNS: { header: string; width: number; cell: (row: SoaRow) => string }[] = [
  { header: 'Control', width: 42, cell: (row) => row.controlId },
  { header: 'Domain', width: 54, cell: (row) => `${row.domain} ${row.domainTitle}` },
  { header: 'Title', width: 80, cell: (row) => row.title },
  { header: 'Applicable', width: 46, cell: (row) => (row.applicable ? 'Yes' : 'No') },
  { header: 'Justification', width: 104, cell: justificationText },
  { header: 'Risks', width: 78, cell: risksCell },
  { header: 'Status', width: 54, cell: statusText },
  { header: 'Note', width: 90, cell: (row) => row.note ?? '' },
  { header: 'Evidence', width: 150, cell: evidenceCell },
  { header: 'Last update', width: 62, cell: lastUpdateCell },
];

/** Text short enough that a row never outgrows a page (counted in characters, not UTF-16 units). */
function pdfText(text: string, limit = CELL_CHARACTERS): string {
  const characters = [...text];
  return characters.length > limit ? `${characters.slice(0, limit - 1).join('')}…` : text;
}

function dateTimeText(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `Alice Martin <alice@acme.example>, owner` or `API key "ci"`. */
function requesterText(view: SoaView): string {
  const by = view.exportedBy;
  if (!by) return 'not recorded';
  if (by.type === 'key') return `API key "${by.name}"`;
  return `${by.name}${by.email ? ` <${by.email}>` : ''}${by.role ? `, ${by.role}` : ''}`;
}

/** The facts of the title page, label and value; small ones (a hash) in a smaller size. */
function titleFacts(view: SoaView): { label: string; value: string; small?: boolean }[] {
  const { snapshot } = view;
  const facts: { label: string; value: string; small?: boolean }[] = [
    {
      label: 'As of',
      value: `${dateTimeText(view.asOf)} (${snapshot ? 'when the snapshot was taken' : 'live data, when generated'})`,
    },
    { label: 'Generated', value: dateTimeText(view.generatedAt) },
    { label: 'Last change to the data', value: dateTimeText(view.lastModified) },
    snapshot
      ? { label: 'Snapshot', value: `${snapshot.label} (${snapshot.snapshotId})` }
      : { label: 'Snapshot', value: 'none (live data)' },
  ];
  if (snapshot) {
    facts.push({ label: 'Snapshot taken', value: dateTimeText(snapshot.createdAt) });
    facts.push({ label: 'Content hash', value: `SHA-256 ${snapshot.contentHash}`, small: true });
  }
  facts.push({ label: 'Compliance score', value: scoreText(view.score) });
  facts.push({ label: 'Exported by', value: requesterText(view) });
  for (const note of view.notes) facts.push({ label: 'Note', value: note });
  return facts;
}

const APPROVAL_COLUMNS = [
  { header: '', width: 80 },
  { header: 'Name', width: 140 },
  { header: 'Role', width: 90 },
  { header: 'Date', width: 75 },
  { header: 'Signature', width: 130 },
];
const APPROVAL_ROW_HEIGHT = 40;

/** Prepared, reviewed and approved by: a table to sign, filled with what comply knows. */
function approvalBlock(doc: PDFKit.PDFDocument, view: SoaView, top: number): void {
  const width = APPROVAL_COLUMNS.reduce((sum, column) => sum + column.width, 0);
  writeText(doc, 'Approval', { style: 'bold', size: 12 }, MARGIN, top, { width });
  const { preparedBy, reviewedBy, approvedBy } = view.approval;
  const rows: [string, SoaSignatory][] = [
    ['Prepared by', preparedBy],
    ['Reviewed by', reviewedBy],
    ['Approved by', approvedBy],
  ];
  let y = top + 20;
  const headerHeight = 16;
  doc.rect(MARGIN, y, width, headerHeight).fill('#e8edf3');
  doc.fillColor('black').strokeColor('#999999').lineWidth(0.5);
  let x = MARGIN;
  for (const column of APPROVAL_COLUMNS) {
    doc.rect(x, y, column.width, headerHeight).stroke();
    writeText(doc, column.header, { style: 'bold', size: 8.5 }, x + 4, y + 4, { width: column.width - 8 });
    x += column.width;
  }
  y += headerHeight;
  for (const [label, who] of rows) {
    const cells = [
      label,
      who.name ?? '',
      who.role ?? '',
      who.date ? dateTimeText(who.date).slice(0, 10) : '',
      '',
    ];
    x = MARGIN;
    cells.forEach((text, i) => {
      const column = APPROVAL_COLUMNS[i];
      doc.rect(x, y, column.width, APPROVAL_ROW_HEIGHT).stroke();
      const font: TextFont = { style: i === 0 ? 'bold' : 'regular', size: 9 };
      writeText(doc, pdfText(text, 80), font, x + 4, y + 5, {
        width: column.width - 8,
        height: APPROVAL_ROW_HEIGHT - 8,
      });
      x += column.width;
    });
    y += APPROVAL_ROW_HEIGHT;
  }
}

function titlePage(doc: PDFKit.PDFDocument, view: SoaView): void {
  const width = doc.page.width - 2 * MARGIN;
  const centered = { width, align: 'center' } as const;
  writeText(doc, 'Statement of Applicability', { style: 'bold', size: 26 }, MARGIN, 90, centered);
  doc.moveDown(0.5);
  writeText(doc, pdfText(view.framework), { style: 'regular', size: 14 }, undefined, undefined, centered);
  doc.moveDown(2);
  writeText(doc, pdfText(view.orgName, 200), { style: 'bold', size: 18 }, undefined, undefined, centered);
  const body: TextFont = { style: 'regular', size: 10 };
  writeText(
    doc,
    pdfText(`Organization id: ${view.orgId}`, 200),
    { style: 'regular', size: 11 },
    undefined,
    undefined,
    centered,
  );
  let y = doc.y + 36;
  const labelWidth = 130;
  const valueWidth = width - labelWidth;
  for (const fact of titleFacts(view)) {
    const font: TextFont = fact.small ? { style: 'regular', size: 8 } : body;
    const value = pdfText(fact.value, 300);
    writeText(doc, fact.label, { style: 'bold', size: 10 }, MARGIN, y, { width: labelWidth - 10 });
    writeText(doc, value, font, MARGIN + labelWidth, y + (fact.small ? 1.5 : 0), { width: valueWidth });
    y += Math.max(heightOfText(doc, value, font, { width: valueWidth }), 14) + 5;
  }
  approvalBlock(doc, view, Math.max(y + 30, 560));
}

function summaryPage(doc: PDFKit.PDFDocument, view: SoaView): void {
  const width = doc.page.width - 2 * MARGIN;
  const { counts } = view;
  setFont(doc, { style: 'bold', size: 16 }).text('Compliance summary', MARGIN, MARGIN, { width });
  setFont(doc, { style: 'regular', size: 12 }).moveDown(1).text('Compliance score');
  setFont(doc, { style: 'bold', size: 36 }).text(scoreText(view.score));
  setFont(doc, { style: 'regular', size: 10 }).moveDown(0.5);
  doc.text(`Implemented: ${counts.implemented}`);
  doc.text(`In progress: ${counts.inProgress}`);
  doc.text(`Not started: ${counts.notStarted}`);
  doc.text(`Not applicable: ${counts.notApplicable}`);
  doc.moveDown(0.5).fontSize(8).fillColor('#555555');
  doc.text('Score = 100 x (implemented + 0.5 x in progress) / applicable controls.', { width });
  doc.fillColor('black').moveDown(2);
  setFont(doc, { style: 'bold', size: 12 }).text('Score history', { width });
  const top = doc.y + 10;
  drawScoreChart(doc, view.history, { x: MARGIN, y: top, width, height: 180 });
  doc.x = MARGIN;
  doc.y = top + 200;
  checksSection(doc, view);
}

/** The checks under the chart, flowing onto further pages when many; none when the export has no risks. */
function checksSection(doc: PDFKit.PDFDocument, view: SoaView): void {
  if (view.checks === null) return;
  const width = doc.page.width - 2 * MARGIN;
  setFont(doc, { style: 'bold', size: 12 }).text('Checks', MARGIN, doc.y, { width });
  doc.moveDown(0.3);
  const font: TextFont = { style: 'regular', size: 8.5 };
  if (view.checks.length === 0) {
    writeText(doc, 'None: the risk treatment raises nothing to review.', font, MARGIN, doc.y, { width });
    return;
  }
  const lines = view.checks.slice(0, CHECK_LINES).map((check) => pdfText(checkText(check), 400));
  const rest = view.checks.length - lines.length;
  if (rest > 0) lines.push(`and ${rest} more (every check is in the JSON statement and at /soa/checks)`);
  for (const line of lines) writeText(doc, line, font, MARGIN, doc.y, { width });
}

function rowHeight(doc: PDFKit.PDFDocument, cells: string[], font: TextFont): number {
  const heights = cells.map(
    (text, i) =>
      heightOfText(doc, text || ' ', font, { width: COLUMNS[i].width - 2 * CELL_PADDING }) + 2 * CELL_PADDING,
  );
  return Math.max(...heights);
}

function drawRow(doc: PDFKit.PDFDocument, cells: string[], y: number, height: number, font: TextFont): void {
  const header = font === TABLE_HEADER;
  let x = MARGIN;
  if (header) {
    const width = COLUMNS.reduce((sum, column) => sum + column.width, 0);
    doc.rect(MARGIN, y, width, height).fill('#e8edf3');
  }
  doc.fillColor('black').strokeColor('#999999').lineWidth(0.4);
  cells.forEach((text, i) => {
    const { width } = COLUMNS[i];
    doc.rect(x, y, width, height).stroke();
    writeText(doc, text, font, x + CELL_PADDING, y + CELL_PADDING, { width: width - 2 * CELL_PADDING });
    x += width;
  });
}

/** The control table, on landscape pages, with the header row repeated on each. */
function controlTable(doc: PDFKit.PDFDocument, view: SoaView): void {
  const headers = COLUMNS.map((column) => column.header);
  const newPage = () => {
    doc.addPage({ size: 'A4', layout: 'landscape', margin: MARGIN });
    const height = rowHeight(doc, headers, TABLE_HEADER);
    drawRow(doc, headers, MARGIN, height, TABLE_HEADER);
    return MARGIN + height;
  };
  let y = newPage();
  const bottom = () => doc.page.height - MARGIN - 14;
  for (const row of view.rows) {
    const cells = COLUMNS.map((column) => pdfText(column.cell(row)));
    const height = rowHeight(doc, cells, TABLE_CELL);
    if (y + height > bottom()) y = newPage();
    drawRow(doc, cells, y, height, TABLE_CELL);
    y += height;
  }
}

function pageNumbers(doc: PDFKit.PDFDocument, view: SoaView): void {
  const range = doc.bufferedPageRange();
  const footer = pdfText(`Statement of Applicability - ${view.orgName}`, 120);
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN + 10;
    const width = doc.page.width - 2 * MARGIN;
    // Writing inside the bottom margin would otherwise start a new page.
    const { bottom } = doc.page.margins;
    doc.page.margins.bottom = 0;
    const font: TextFont = { style: 'regular', size: 7 };
    doc.fillColor('#777777');
    writeText(doc, footer, font, MARGIN, y, { width, align: 'left', lineBreak: false });
    setFont(doc, font).text(`Page ${i + 1} of ${range.count}`, MARGIN, y, {
      width,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** A paginated PDF: title page, score and its history, then the control table. */
export function renderSoaPdf(view: SoaView): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: pdfText(`Statement of Applicability - ${view.orgName}`, 200),
      Subject: pdfText(view.framework),
      Author: pdfText(view.orgName, 200),
      Creator: 'comply',
      CreationDate: new Date(view.generatedAt),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  registerFonts(doc);
  titlePage(doc, view);
  doc.addPage();
  summaryPage(doc, view);
  controlTable(doc, view);
  pageNumbers(doc, view);
  doc.end();
  return done;
}
