import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../helpers/pdf';

/** The deflated drawing operators of a text, as pdf-lib writes them. */
const deflated = (drawn: string) => zlib.deflateSync(Buffer.from(`BT <${Buffer.from(drawn, 'latin1').toString('hex')}> Tj ET`, 'latin1'));

/** A PDF content stream as pdf-lib writes one: its dictionary with /Length, then the deflated bytes. */
function contentStream(drawn: string): Buffer {
  const data = deflated(drawn);
  return Buffer.concat([
    Buffer.from(`1 0 obj\n<<\n/Filter /FlateDecode\n/Length ${data.length}\n>>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
}

describe('pdfText (the test helper that reads invoice PDFs)', () => {
  it('reads a compressed stream whose last byte is a carriage return', () => {
    // About one stream in 256 ends in \r; find one such text.
    let drawn = '';
    for (let n = 0; ; n++) {
      drawn = `Sous-total ${n}`;
      if (deflated(drawn).at(-1) === 0x0d) break;
    }
    expect(pdfText(contentStream(drawn))).toBe(`${drawn}\n`);
  });

  it('reads every stream of a document', () => {
    expect(pdfText(Buffer.concat([contentStream('Reçu'), contentStream('Montant payé')]))).toBe('Reçu\nMontant payé\n');
  });
});
