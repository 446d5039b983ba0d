/** The part of fontkit (pdfkit's font engine; the package ships no types) that the SoA PDF uses. */
declare module 'fontkit' {
  export interface Font {
    /** True when the font's character map has a glyph for this code point. */
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Uint8Array): Font;
}
