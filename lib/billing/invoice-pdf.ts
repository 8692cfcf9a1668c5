import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatMoney } from '../money/format';
import { invoiceDocument, type InvoiceDocument } from './invoice-document';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { creditNoteDocument, type HostedCreditNote } from './credit-note-document';
import { DEFAULT_LOCALE, type Locale } from '../i18n/locales';
import type { HostedInvoice } from './invoices';

const PAGE = { width: 595.28, height: 841.89, margin: 56 } as const; // A4, in points
const INK = rgb(0.06, 0.09, 0.16);
const MUTED = rgb(0.39, 0.45, 0.55);
const RULE = rgb(0.89, 0.91, 0.94);
const LATIN_LOCALES: ReadonlySet<Locale> = new Set(['en', 'de', 'fr', 'es']);
/** French money and dates use narrow and thin no-break spaces, which WinAnsi lacks. */
const NARROW_SPACES = /[\u202f\u2009]/g;

/**
 * The invoice (receipt once paid) as a PDF, made with pdf-lib and its standard Helvetica, which
 * draws Latin text only (WinAnsi): any other character is printed as "?", and a currency whose
 * symbol it cannot draw is shown by its code (docs/invoices.md, "Limits").
 */
export function renderInvoicePdf(invoice: HostedInvoice, locale: Locale = DEFAULT_LOCALE): Promise<Uint8Array> {
  return renderDocumentPdf(invoice.record.currency, locale, (options) => invoiceDocument(invoice, options));
}

/** A credit note as a PDF, drawn as the invoice's. */
export function renderCreditNotePdf(creditNote: HostedCreditNote, locale: Locale = DEFAULT_LOCALE): Promise<Uint8Array> {
  return renderDocumentPdf(creditNote.note.currency, locale, (options) => creditNoteDocument(creditNote, options));
}

async function renderDocumentPdf(
  currency: string,
  locale: Locale,
  documentOf: (options: { text: CustomerText; currencyDisplay: 'symbol' | 'code' }) => InvoiceDocument,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const drawable = new Set(regular.getCharacterSet());
  const symbolDrawable = [...formatMoney(-12345, currency)].every((char) => drawable.has(char.codePointAt(0)!));
  // The standard font draws Latin scripts only: a Japanese reader gets the English PDF.
  const text = customerText(LATIN_LOCALES.has(locale) ? locale : DEFAULT_LOCALE);
  const document = documentOf({ text, currencyDisplay: symbolDrawable ? 'symbol' : 'code' });
  pdf.setTitle(`${document.title} ${document.number}`);
  pdf.setAuthor(document.seller.name.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?'));
  pdf.setCreator('Paybase');
  const writer = new PageWriter(pdf.addPage([PAGE.width, PAGE.height]), (line) =>
    [...line.replace(NARROW_SPACES, ' ')].map((char) => (drawable.has(char.codePointAt(0)!) ? char : '?')).join(''),
  );
  writeDocument(writer, document, { regular, bold }, () => (writer.page = pdf.addPage([PAGE.width, PAGE.height])));
  return pdf.save();
}

class PageWriter {
  y: number = PAGE.height - PAGE.margin;
  constructor(
    public page: PDFPage,
    readonly clean: (text: string) => string,
  ) {}

  text(value: string, options: { x?: number; size?: number; font: PDFFont; color?: ReturnType<typeof rgb>; alignRight?: number }) {
    const size = options.size ?? 10;
    const text = this.clean(value);
    const x = options.alignRight !== undefined ? options.alignRight - options.font.widthOfTextAtSize(text, size) : (options.x ?? PAGE.margin);
    this.page.drawText(text, { x, y: this.y, size, font: options.font, color: options.color ?? INK });
  }

  /** `value` in lines no wider than `width` points, broken between words. */
  wrapped(value: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of value.split(/\s+/).filter(Boolean)) {
      const longer = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(this.clean(longer), size) > width) {
        lines.push(line);
        line = word;
      } else line = longer;
    }
    if (line) lines.push(line);
    return lines;
  }

  rule() {
    this.page.drawLine({ start: { x: PAGE.margin, y: this.y }, end: { x: PAGE.width - PAGE.margin, y: this.y }, thickness: 0.75, color: RULE });
  }
}

function writeDocument(w: PageWriter, doc: InvoiceDocument, fonts: { regular: PDFFont; bold: PDFFont }, newPage: () => void) {
  const right = PAGE.width - PAGE.margin;
  const down = (points: number) => {
    w.y -= points;
    if (w.y < PAGE.margin) {
      newPage();
      w.y = PAGE.height - PAGE.margin;
    }
  };
  const wrap = (value: string, width: number) => (value.length > width ? `${value.slice(0, width - 1)}…` : value);
  w.text(doc.seller.name, { font: fonts.bold, size: 14 });
  w.text(doc.title, { font: fonts.bold, size: 20, alignRight: right });
  for (const line of [
    ...doc.seller.addressLines,
    ...(doc.seller.taxId ? [doc.seller.taxId] : []),
    ...(doc.seller.supportEmail ? [doc.seller.supportEmail] : []),
  ]) {
    down(14);
    w.text(line, { font: fonts.regular, color: MUTED });
  }
  if (doc.reference) {
    down(28);
    w.text(doc.reference.text, { font: fonts.bold });
  }
  down(28);
  const facts: [string, string][] = [
    [doc.words.number, doc.number],
    ...(doc.statusName ? ([[doc.words.status, doc.statusName]] as [string, string][]) : []),
    [doc.words.issued, doc.issuedAt],
    ...(doc.paidAt ? ([[doc.words.paid, doc.paidAt]] as [string, string][]) : []),
    ...(doc.period ? ([[doc.words.servicePeriod, doc.period]] as [string, string][]) : []),
    [doc.words.billedTo, [doc.billedTo.name, doc.billedTo.email].filter(Boolean).join(', ') || '-'],
    ...[...doc.billedTo.addressLines, ...(doc.billedTo.taxId ? [doc.billedTo.taxId] : [])].map((line): [string, string] => ['', line]),
  ];
  for (const [label, value] of facts) {
    w.text(label, { font: fonts.regular, color: MUTED });
    w.text(wrap(value, 70), { font: fonts.regular, x: PAGE.margin + 120 });
    down(15);
  }
  down(15);
  w.text(doc.words.description, { font: fonts.bold, color: MUTED });
  w.text(doc.words.quantity, { font: fonts.bold, color: MUTED, alignRight: right - 110 });
  w.text(doc.words.amount, { font: fonts.bold, color: MUTED, alignRight: right });
  down(8);
  w.rule();
  for (const line of doc.lines) {
    down(16);
    w.text(line.description.length > 70 ? `${line.description.slice(0, 69)}…` : line.description, { font: fonts.regular });
    w.text(line.quantityLabel, { font: fonts.regular, alignRight: right - 110 });
    w.text(line.amount, { font: fonts.regular, alignRight: right });
    for (const detail of line.details) {
      down(12);
      w.text(detail.length > 90 ? `${detail.slice(0, 89)}…` : detail, { font: fonts.regular, size: 8, color: MUTED, x: PAGE.margin + 8 });
    }
    down(8);
    w.rule();
  }
  down(10);
  for (const total of doc.totals) {
    down(16);
    const font = total.strong ? fonts.bold : fonts.regular;
    w.text(wrap(total.label, 48), { font, x: right - 300 });
    w.text(total.amount, { font, alignRight: right });
  }
  // Legal mentions and the footer are wrapped, never cut: a reverse-charge note must be whole.
  for (const note of doc.notes) {
    down(14);
    for (const line of w.wrapped(note, fonts.bold, 9, right - PAGE.margin)) {
      down(12);
      w.text(line, { font: fonts.bold, size: 9 });
    }
  }
  if (doc.payments.length > 0) {
    down(36);
    w.text(doc.words.payments, { font: fonts.bold });
    for (const payment of doc.payments) {
      down(16);
      w.text(`${payment.date}  ${payment.description}  ${payment.status}`, { font: fonts.regular, color: MUTED });
      w.text(payment.amount, { font: fonts.regular, color: MUTED, alignRight: right });
    }
  }
  if (doc.creditNotes.length > 0) {
    down(36);
    w.text(doc.words.creditNotes, { font: fonts.bold });
    for (const note of doc.creditNotes) {
      down(16);
      w.text(`${note.number}  ${note.date}`, { font: fonts.regular, color: MUTED });
      w.text(note.amount, { font: fonts.regular, color: MUTED, alignRight: right });
    }
  }
  if (doc.seller.footer) {
    down(36);
    for (const line of doc.seller.footer.split('\n').flatMap((paragraph) => w.wrapped(paragraph, fonts.regular, 8, right - PAGE.margin))) {
      w.text(line, { font: fonts.regular, size: 8, color: MUTED });
      down(11);
    }
  }
}
