// The characters of Windows-1252 above 0x7F that are not Latin-1: what the PDF standard fonts can show.
const CP1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

const REPLACEMENTS: Record<string, string> = {
  '≤': '<=',
  '≥': '>=',
  '≠': '!=',
  '→': '->',
  '←': '<-',
  '−': '-',
  '‐': '-',
  '‑': '-',
  '′': "'",
  '″': '"',
  // Letters with a stroke do not decompose, so NFKD cannot fold them.
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
};

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRAS.has(char);
}

/**
 * Text the standard PDF fonts can encode (WinAnsi). Accented letters outside it lose their accent
 * (ő → o), a few symbols get ASCII spellings, anything else becomes `?`. Line breaks are kept.
 */
export function toWinAnsi(text: string): string {
  let result = '';
  for (const char of text) {
    if (char === '\n' || isWinAnsi(char)) result += char;
    else if (/\s/.test(char)) result += ' ';
    else if (REPLACEMENTS[char]) result += REPLACEMENTS[char];
    else if (/\p{Cc}|\p{Cf}/u.test(char)) continue;
    else {
      const folded = [...char.normalize('NFKD')].filter(isWinAnsi).join('');
      result += folded === '' ? '?' : folded;
    }
  }
  return result;
}
