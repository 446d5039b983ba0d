import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { create } from 'fontkit';
function packageFile(specifier, relative = '') {
    return fileURLToPath(new URL(relative, import.meta.resolve(specifier)));
}
/**
 * The faces a character is looked up in, in this order: Noto Sans (Latin, Greek, Cyrillic), Noto Sans
 * Hebrew, Noto Sans Hans (Chinese, simplified and traditional, and Japanese kana) and the monochrome
 * Noto Emoji (a PDF cannot show colour emoji fonts). All are under the SIL Open Font License.
 */
function faceFiles() {
    const latin = (file) => packageFile('@embedpdf/fonts-latin', `../fonts/${file}`);
    const hebrew = (file) => packageFile('@embedpdf/fonts-hebrew', `../fonts/${file}`);
    const cjk = (file) => packageFile('@embedpdf/fonts-sc', `../fonts/${file}`);
    const emoji = packageFile('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf');
    return [
        { name: 'NotoSans', regular: latin('NotoSans-Regular.ttf'), bold: latin('NotoSans-Bold.ttf') },
        {
            name: 'NotoSansHebrew',
            regular: hebrew('NotoSansHebrew-Regular.ttf'),
            bold: hebrew('NotoSansHebrew-Bold.ttf'),
        },
        { name: 'NotoSansHans', regular: cjk('NotoSansHans-Regular.otf'), bold: cjk('NotoSansHans-Bold.otf') },
        { name: 'NotoEmoji', regular: emoji, bold: emoji },
    ];
}
let loadedFaces;
/** The faces, read from disk on the first PDF and kept: the CJK face alone is 8 MB. */
function faces() {
    loadedFaces ??= faceFiles().map(({ name, regular, bold }) => {
        const regularFont = create(readFileSync(regular));
        const boldFont = bold === regular ? regularFont : create(readFileSync(bold));
        return { name, fonts: { regular: regularFont, bold: boldFont } };
    });
    return loadedFaces;
}
/** Both styles of a face cover the same characters. */
function covers(face, codePoint) {
    return face.fonts.regular.hasGlyphForCodePoint(codePoint);
}
function fontName(face, style) {
    return `${faces()[face].name}-${style}`;
}
/**
 * Makes the faces known to the document. pdfkit opens a face only when text uses it and embeds only
 * the glyphs drawn, so a PDF in Latin script alone carries no Hebrew, CJK or emoji font.
 */
export function registerFonts(doc) {
    faces().forEach((face, index) => {
        for (const style of ['regular', 'bold']) {
            // pdfkit takes a parsed fontkit font as well as a file (PDFFontFactory.open); its types list files only.
            doc.registerFont(fontName(index, style), face.fonts[style]);
        }
    });
}
/** Sets the main (Latin) face: what moveDown and text drawn without runs measure with. */
export function setFont(doc, font) {
    return doc.font(fontName(0, font.style)).fontSize(font.size);
}
/** The name pdfkit knows the main (Latin) face by. */
export function latinFont(style) {
    return fontName(0, style);
}
/** Characters that belong to no one script (spaces, digits, punctuation, marks) stay in the run they follow. */
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
const ZERO_WIDTH_JOINER = '\u200d';
function coveringFace(all, codePoint) {
    return all.findIndex((face) => covers(face, codePoint));
}
/**
 * Splits text into runs that one face each can draw, since pdfkit has no font fallback of its own.
 * Line breaks are kept, other white space becomes a space and control characters are dropped. A
 * character no face covers loses its accent if that makes it drawable (NFKD), else becomes `?`.
 */
export function fontRuns(text) {
    const all = faces();
    const runs = [];
    const append = (face, char) => {
        const last = runs.at(-1);
        if (last && last.face === face)
            last.text += char;
        else
            runs.push({ face, text: char });
    };
    for (let char of text.normalize('NFC')) {
        if (char !== '\n' && /\s/.test(char))
            char = ' ';
        if (char !== '\n' && char !== ZERO_WIDTH_JOINER && /\p{Cc}|\p{Cf}/u.test(char))
            continue;
        const codePoint = char.codePointAt(0) ?? 0;
        const current = runs.at(-1)?.face;
        if (current !== undefined && (NEUTRAL.test(char) || char === ZERO_WIDTH_JOINER)) {
            if (char === '\n' || covers(all[current], codePoint)) {
                append(current, char);
                continue;
            }
        }
        if (char === '\n') {
            append(0, char);
            continue;
        }
        // A joiner only means something inside an emoji sequence, in the run it joins.
        if (char === ZERO_WIDTH_JOINER)
            continue;
        const face = coveringFace(all, codePoint);
        if (face >= 0) {
            append(face, char);
            continue;
        }
        const folded = [...char.normalize('NFKD')].filter((part) => coveringFace(all, part.codePointAt(0) ?? 0) >= 0);
        if (folded.length === 0)
            append(current ?? 0, '?');
        else
            for (const part of folded)
                append(coveringFace(all, part.codePointAt(0) ?? 0), part);
    }
    return runs;
}
/** The main face's ascent (Noto Sans: 1069/1000 em). */
const LATIN_ASCENT = 1.069;
/**
 * Options for each run. pdfkit puts the baseline one ascent below the line's top, and the faces'
 * ascents differ: one baseline for all keeps mixed scripts on one line (pdfkit takes a number as
 * the negated offset of the baseline from the top).
 */
function runOptions(font, options) {
    return { ...options, baseline: -LATIN_ASCENT * font.size };
}
/**
 * Draws text at (x, y), or where the previous text ended, as pdfkit's text() does, one run per face
 * with `continued` so that wrapping and alignment see one paragraph.
 */
export function writeText(doc, text, font, x, y, options = {}) {
    const runs = fontRuns(text);
    if (runs.length === 0)
        runs.push({ face: 0, text: '' });
    let start = { x, y, options };
    const left = x ?? doc.x;
    const aligned = runs.length > 1 && (options.align === 'center' || options.align === 'right');
    if (aligned)
        start = alignedStart(doc, runs, font, left, y ?? doc.y, options);
    runs.forEach((run, index) => {
        doc.font(fontName(run.face, font.style)).fontSize(font.size);
        const runOptionsWith = runOptions(font, { ...start.options, continued: index < runs.length - 1 });
        // pdfkit reads text(s, undefined, undefined, options) as having no options: it looks at x alone.
        if (index === 0 && start.x !== undefined)
            doc.text(run.text, start.x, start.y, runOptionsWith);
        else
            doc.text(run.text, runOptionsWith);
    });
    // The next text flows from the box's left edge, not from where the aligned line began.
    if (aligned)
        doc.x = left;
    return setFont(doc, font);
}
/**
 * pdfkit aligns each continued run on its own, so runs overlap when centred: a line that fits is
 * placed by its whole width and drawn left-aligned from there, a longer one wraps left-aligned.
 */
function alignedStart(doc, runs, font, x, y, options) {
    const width = options.width ?? doc.page.width - doc.page.margins.right - x;
    const total = runs.reduce((sum, run) => sum + doc.font(fontName(run.face, font.style)).fontSize(font.size).widthOfString(run.text), 0);
    if (runs.some((run) => run.text.includes('\n')) || total > width)
        return { x, y, options: { ...options, align: 'left' } };
    const shift = options.align === 'center' ? (width - total) / 2 : width - total;
    return { x: x + shift, y, options: { ...options, align: 'left', width: width - shift } };
}
/** The height writeText would take, measured run by run the way pdfkit measures one string. */
export function heightOfText(doc, text, font, options = {}) {
    const runs = fontRuns(text);
    if (runs.length === 0)
        runs.push({ face: 0, text: '' });
    let height = 0;
    runs.forEach((run, index) => {
        doc.font(fontName(run.face, font.style)).fontSize(font.size);
        // A continued run leaves its last line open; the next run's measure counts it.
        height += doc.heightOfString(run.text, runOptions(font, { ...options, continued: index < runs.length - 1 }));
    });
    setFont(doc, font);
    return height;
}
//# sourceMappingURL=pdf-fonts.js.map