import type { InvoiceDocument } from '@/lib/billing/invoice-document';

const STATUS_TONE: Record<string, string> = {
  paid: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  open: 'bg-amber-50 text-amber-900 ring-amber-600/20',
  void: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  uncollectible: 'bg-red-50 text-red-800 ring-red-600/20',
};

/** An invoice or receipt as the hosted page shows it (the PDF prints the same document). */
export function InvoiceView({ document, pdfHref }: { document: InvoiceDocument; pdfHref: string }) {
  return (
    <article lang={document.locale} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8" aria-labelledby="invoice-title">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-medium text-slate-500" data-testid="invoice-seller">
            {document.seller.name}
          </p>
          <PartyLines party={document.seller} />
        </div>
        <a href={pdfHref} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700" download>
          {document.words.downloadPdf}
        </a>
      </header>
      <div className="mt-8 flex flex-wrap items-center gap-3">
        <h1 id="invoice-title" className="text-2xl font-semibold tracking-tight">
          {document.title}
        </h1>
        {document.statusName ? (
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_TONE[document.status ?? 'void'] ?? STATUS_TONE.void}`}
            data-testid="invoice-status"
          >
            {document.statusName}
          </span>
        ) : null}
      </div>
      {document.reference ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="document-reference">
          {document.reference.href ? (
            <a className="text-brand-700 underline" href={document.reference.href}>
              {document.reference.text}
            </a>
          ) : (
            document.reference.text
          )}
        </p>
      ) : null}
      <dl className="mt-4 grid gap-x-8 gap-y-2 text-sm sm:grid-cols-2">
        <Fact label={document.words.number} value={document.number} mono />
        <Fact label={document.words.issued} value={document.issuedAt} />
        {document.paidAt ? <Fact label={document.words.paid} value={document.paidAt} /> : null}
        {document.period ? <Fact label={document.words.servicePeriod} value={document.period} /> : null}
      </dl>
      <section className="mt-6 text-sm" aria-labelledby="billed-to-heading" data-testid="invoice-buyer">
        <h2 id="billed-to-heading" className="text-slate-500">
          {document.words.billedTo}
        </h2>
        <p className="text-slate-900">{[document.billedTo.name, document.billedTo.email].filter(Boolean).join(' · ') || '—'}</p>
        <PartyLines party={document.billedTo} />
      </section>
      <table className="mt-8 w-full text-sm">
        <caption className="sr-only">{document.words.lineItems}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500">
            <th scope="col" className="py-2 font-medium">
              {document.words.description}
            </th>
            <th scope="col" className="py-2 pl-4 text-right font-medium">
              {document.words.quantity}
            </th>
            <th scope="col" className="py-2 pl-4 text-right font-medium">
              {document.words.amount}
            </th>
          </tr>
        </thead>
        <tbody>
          {document.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an invoice's lines are a fixed document in its own order; two lines may read the same.
            <tr key={index} className="border-b border-slate-100 align-top" data-line-kind={line.kind}>
              <td className="py-2 pr-4">
                {line.description}
                {line.details.map((detail) => (
                  <span key={detail} className="block text-xs text-slate-500">
                    {detail}
                  </span>
                ))}
              </td>
              <td className="py-2 pl-4 text-right align-top tabular-nums">{line.quantityLabel}</td>
              <td className="py-2 pl-4 text-right align-top tabular-nums">{line.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="ml-auto mt-4 max-w-xs space-y-1 text-sm" data-testid="invoice-totals">
        {document.totals.map((total) => (
          <div
            key={`${total.kind}:${total.label}`}
            className={`flex justify-between gap-4 ${total.strong ? 'font-semibold text-slate-900' : 'text-slate-600'}`}
          >
            <dt>{total.label}</dt>
            <dd className="tabular-nums">{total.amount}</dd>
          </div>
        ))}
      </dl>
      {document.notes.map((note) => (
        <p key={note} className="mt-4 text-sm font-medium text-slate-800" data-testid="invoice-note">
          {note}
        </p>
      ))}
      {document.creditNotes.length > 0 ? (
        <section className="mt-8" aria-labelledby="credit-notes-heading" data-testid="invoice-credit-notes">
          <h2 id="credit-notes-heading" className="text-sm font-semibold text-slate-900">
            {document.words.creditNotes}
          </h2>
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {document.creditNotes.map((note) => (
              <li key={note.number} className="flex justify-between gap-4 py-2 text-slate-600">
                <span>
                  <a className="font-mono text-brand-700 underline" href={note.href}>
                    {note.number}
                  </a>{' '}
                  · {note.date}
                </span>
                <span className="tabular-nums">{note.amount}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {document.payments.length > 0 ? (
        <section className="mt-8" aria-labelledby="payments-heading">
          <h2 id="payments-heading" className="text-sm font-semibold text-slate-900">
            {document.words.payments}
          </h2>
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {document.payments.map((payment, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an invoice's payments are a fixed document in its own order; two may read the same.
              <li key={index} className="flex justify-between gap-4 py-2 text-slate-600">
                <span>
                  {payment.date} · {payment.description} · {payment.status}
                </span>
                <span className="tabular-nums">{payment.amount}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {document.seller.supportEmail || document.seller.supportUrl ? (
        <p className="mt-8 text-sm text-slate-600">
          {document.words.questions}{' '}
          {[document.seller.supportEmail ? `mailto:${document.seller.supportEmail}` : null, document.seller.supportUrl]
            .filter((href): href is string => href !== null)
            .map((href, index) => (
              <span key={href}>
                {index > 0 ? ' · ' : null}
                <a className="text-brand-700 underline" href={href}>
                  {href.replace(/^mailto:/, '')}
                </a>
              </span>
            ))}
        </p>
      ) : null}
      {document.seller.footer ? (
        <p className="mt-8 whitespace-pre-line border-t border-slate-100 pt-4 text-xs text-slate-500" data-testid="invoice-footer">
          {document.seller.footer}
        </p>
      ) : null}
    </article>
  );
}

/** A party's address lines and tax id. */
function PartyLines({ party }: { party: InvoiceDocument['billedTo'] }) {
  return (
    <>
      {party.addressLines.map((line) => (
        <p key={line} className="text-sm text-slate-600">
          {line}
        </p>
      ))}
      {party.taxId ? <p className="text-sm text-slate-600">{party.taxId}</p> : null}
    </>
  );
}

function Fact({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="flex gap-2">
      <dt className="shrink-0 text-slate-500">{label}</dt>
      <dd className={mono ? 'break-all font-mono text-slate-900' : 'text-slate-900'}>{value}</dd>
    </div>
  );
}
