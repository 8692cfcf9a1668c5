import { extractText, getDocumentProxy } from 'unpdf';

/** Every text a PDF draws, as a reader's PDF viewer reads it (Mozilla's pdf.js): one line of the page per line. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text;
}
