declare module 'subset-font' {
  interface SubsetOptions {
    targetFormat?: 'sfnt' | 'truetype' | 'woff' | 'woff2';
    preserveNameIds?: number[];
    noLayoutClosure?: boolean;
  }
  /** A font with only the glyphs `text` needs, made by HarfBuzz's hb-subset. */
  function subsetFont(font: Uint8Array, text: string, options?: SubsetOptions): Promise<Buffer>;
  export default subsetFont;
}

declare module 'fontverter' {
  /** The font in another container: `sfnt` is the plain TrueType/OpenType file a WOFF wraps. */
  export function convert(font: Uint8Array, toFormat: 'sfnt' | 'truetype' | 'woff' | 'woff2'): Promise<Buffer>;
}
