/** Links to a billing record's hosted invoice page and its PDF (both at the record's secret token). */
export function InvoiceLinks({ page, pdf }: { page: string; pdf: string }) {
  return (
    <span className="flex gap-3 text-sm">
      <a href={page} target="_blank" rel="noreferrer" className="font-medium text-brand-700 hover:underline">
        View
      </a>
      <a href={pdf} target="_blank" rel="noreferrer" className="font-medium text-brand-700 hover:underline">
        PDF
      </a>
    </span>
  );
}
