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
