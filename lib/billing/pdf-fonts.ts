import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { convert } from 'fontverter';
import subsetFont from 'subset-font';
import { type PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';

/**
 * The fonts a document is drawn with (docs/invoices.md, "Documents"): the standard Helvetica for
 * the Latin text it can draw (WinAnsi), then BIZ UDPGothic, a business-document font for Japanese
 * that also covers Latin Extended, Cyrillic and Greek, for every other character. Fallback fonts
 * are embedded only when the document needs them, and then only the glyphs it uses (a subset).
 */
export interface FontStack {
  readonly fonts: readonly { font: PDFFont; characters: ReadonlySet<number> }[];
}

export interface DocumentFonts {
  regular: FontStack;
  bold: FontStack;
}

const FALLBACK_SCRIPTS = ['latin-ext', 'japanese', 'cyrillic', 'greek-ext'] as const;
const FONTSOURCE_FILES = path.join(process.cwd(), 'node_modules', '@fontsource', 'biz-udpgothic', 'files');

interface FallbackFont {
  sfnt: Uint8Array;
  characters: ReadonlySet<number>;
}

/**
 * Each fallback font read once per process, unwrapped from its WOFF (HarfBuzz cuts the plain
 * font in about 2 ms, the WOFF in about 80: it would inflate it on every document), with the
 * characters it draws.
 */
const fallbackFonts = new Map<string, Promise<FallbackFont>>();

function fallbackFont(script: (typeof FALLBACK_SCRIPTS)[number], weight: 400 | 700): Promise<FallbackFont> {
  const file = `biz-udpgothic-${script}-${weight}-normal.woff`;
  let font = fallbackFonts.get(file);
  if (!font) {
    font = readFile(path.join(FONTSOURCE_FILES, file)).then(async (woff) => {
      const sfnt = await convert(woff, 'sfnt');
      return { sfnt, characters: new Set(fontkit.create(sfnt).characterSet) };
    });
    font.catch(() => fallbackFonts.delete(file));
    fallbackFonts.set(file, font);
  }
  return font;
}

/**
 * Helvetica, then each fallback font that draws a character of `text` the fonts before it cannot,
 * cut by HarfBuzz to the glyphs of those characters (pdf-lib's own subsetting breaks this font's
 * composite glyphs).
 */
async function fontStack(pdf: PDFDocument, standard: StandardFonts, weight: 400 | 700, text: string): Promise<FontStack> {
  const first = await pdf.embedFont(standard);
  const fonts: FontStack['fonts'][number][] = [{ font: first, characters: new Set(first.getCharacterSet()) }];
  let missing = [...new Set(Array.from(text, (char) => char.codePointAt(0)!))].filter((code) => !fonts[0]!.characters.has(code));
  for (const script of FALLBACK_SCRIPTS) {
    if (missing.length === 0) break;
    const fallback = await fallbackFont(script, weight);
    const drawn = missing.filter((code) => fallback.characters.has(code));
    if (drawn.length === 0) continue;
    pdf.registerFontkit(fontkit);
    const subset = await subsetFont(fallback.sfnt, String.fromCodePoint(...drawn), { targetFormat: 'truetype' });
    const font = await pdf.embedFont(subset);
    fonts.push({ font, characters: new Set(drawn) });
    missing = missing.filter((code) => !fallback.characters.has(code));
  }
  return { fonts };
}

export async function documentFonts(pdf: PDFDocument, text: string): Promise<DocumentFonts> {
  return {
    regular: await fontStack(pdf, StandardFonts.Helvetica, 400, text),
    bold: await fontStack(pdf, StandardFonts.HelveticaBold, 700, text),
  };
}

export interface TextRun {
  text: string;
  font: PDFFont;
}

/** `text` cut where the font drawing it changes; a character no font has is drawn as "?". */
export function textRuns(stack: FontStack, text: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const font = stack.fonts.find((candidate) => candidate.characters.has(code))?.font;
    const drawn = font ? char : '?';
    const drawnWith = font ?? stack.fonts[0]!.font;
    const last = runs.at(-1);
    if (last?.font === drawnWith) last.text += drawn;
    else runs.push({ text: drawn, font: drawnWith });
  }
  return runs;
}

export function widthOf(stack: FontStack, text: string, size: number): number {
  return textRuns(stack, text).reduce((width, run) => width + run.font.widthOfTextAtSize(run.text, size), 0);
}

export function canDraw(stack: FontStack, text: string): boolean {
  return Array.from(text).every((char) => stack.fonts.some((font) => font.characters.has(char.codePointAt(0)!)));
}
