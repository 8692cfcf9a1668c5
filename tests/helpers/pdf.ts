import zlib from 'node:zlib';

/** Every text a PDF (made by pdf-lib) draws: its content streams inflated, the hex strings of `Tj` decoded. */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let text = '';
  // Each stream is read by its dictionary's /Length: searching for "endstream" instead cut a
  // compressed stream whose last byte happened to be a carriage return (a rare, empty-text flake).
  for (const match of raw.matchAll(/<<((?:(?!>>)[\s\S])*)>>\s*stream\r?\n/g)) {
    const length = /\/Length (\d+)/.exec(match[1]!);
    if (!length) continue;
    const data = raw.slice(match.index + match[0].length, match.index + match[0].length + Number(length[1]));
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(data, 'latin1')).toString('latin1');
    } catch {
      content = data;
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) text += `${Buffer.from(hex[1]!, 'hex').toString('latin1')}\n`;
  }
  return text;
}
