import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { canDraw, documentFonts, type DocumentFonts, type FontStack, textRuns, widthOf } from './pdf-fonts';
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
/** French money and dates use narrow and thin no-break spaces: drawn as spaces, which every font has. */
const NARROW_SPACES = /[\u202f\u2009]/g;

/**
 * The invoice (receipt once paid) as a PDF, made with pdf-lib in the reader's language: Latin
 * text in the standard Helvetica, any other script (Japanese, Cyrillic, Greek, Latin Extended
 * names) in an embedded font (lib/billing/pdf-fonts.ts). A character no font has prints as "?",
 * and a currency whose symbol none can draw is shown by its code (docs/invoices.md, "Limits").
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
  const text = customerText(locale);
  let document = documentOf({ text, currencyDisplay: 'symbol' });
  const fonts = await documentFonts(pdf, JSON.stringify(document).replace(NARROW_SPACES, ' '));
  if (!canDraw(fonts.regular, formatMoney(-12345, currency).replace(NARROW_SPACES, ' '))) document = documentOf({ text, currencyDisplay: 'code' });
  pdf.setTitle(`${document.title} ${document.number}`);
  pdf.setAuthor(document.seller.name);
  pdf.setLanguage(locale);
  pdf.setCreator('Paybase');
  const writer = new PageWriter(pdf.addPage([PAGE.width, PAGE.height]));
  writeDocument(writer, document, fonts, () => (writer.page = pdf.addPage([PAGE.width, PAGE.height])));
  return pdf.save();
}

class PageWriter {
  y: number = PAGE.height - PAGE.margin;
  constructor(public page: PDFPage) {}

  text(value: string, options: { x?: number; size?: number; font: FontStack; color?: ReturnType<typeof rgb>; alignRight?: number }) {
    const size = options.size ?? 10;
    const text = value.replace(NARROW_SPACES, ' ');
    let x = options.alignRight !== undefined ? options.alignRight - widthOf(options.font, text, size) : (options.x ?? PAGE.margin);
    for (const run of textRuns(options.font, text)) {
      this.page.drawText(run.text, { x, y: this.y, size, font: run.font, color: options.color ?? INK });
      x += run.font.widthOfTextAtSize(run.text, size);
    }
  }

  /** `value` cut with an ellipsis to at most `width` points. */
  fitted(value: string, font: FontStack, size: number, width: number): string {
    if (widthOf(font, value, size) <= width) return value;
    const chars = Array.from(value);
    while (chars.length > 0 && widthOf(font, `${chars.join('')}…`, size) > width) chars.pop();
    return `${chars.join('')}…`;
  }

  /** `value` in lines no wider than `width` points, broken between words, or between characters in a word too wide (Japanese has no spaces). */
  wrapped(value: string, font: FontStack, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of value.split(/\s+/).filter(Boolean)) {
      const longer = line ? `${line} ${word}` : word;
      if (widthOf(font, longer, size) <= width) line = longer;
      else if (widthOf(font, word, size) <= width) {
        if (line) lines.push(line);
        line = word;
      } else {
        for (const char of line ? ` ${word}` : word) {
          if (line && widthOf(font, line + char, size) > width) {
            lines.push(line);
            line = char.trim();
          } else line += char;
        }
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  rule() {
    this.page.drawLine({ start: { x: PAGE.margin, y: this.y }, end: { x: PAGE.width - PAGE.margin, y: this.y }, thickness: 0.75, color: RULE });
  }
}

function writeDocument(w: PageWriter, doc: InvoiceDocument, fonts: DocumentFonts, newPage: () => void) {
  const right = PAGE.width - PAGE.margin;
  const down = (points: number) => {
    w.y -= points;
    if (w.y < PAGE.margin) {
      newPage();
      w.y = PAGE.height - PAGE.margin;
    }
  };
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
    w.text(w.fitted(value, fonts.regular, 10, right - PAGE.margin - 120), { font: fonts.regular, x: PAGE.margin + 120 });
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
    w.text(w.fitted(line.description, fonts.regular, 10, right - PAGE.margin - 180), { font: fonts.regular });
    w.text(line.quantityLabel, { font: fonts.regular, alignRight: right - 110 });
    w.text(line.amount, { font: fonts.regular, alignRight: right });
    for (const detail of line.details) {
      down(12);
      w.text(w.fitted(detail, fonts.regular, 8, right - PAGE.margin - 8), { font: fonts.regular, size: 8, color: MUTED, x: PAGE.margin + 8 });
    }
    down(8);
    w.rule();
  }
  down(10);
  for (const total of doc.totals) {
    down(16);
    const font = total.strong ? fonts.bold : fonts.regular;
    w.text(w.fitted(total.label, font, 10, 210), { font, x: right - 300 });
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
