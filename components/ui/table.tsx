import type { ReactNode } from 'react';

/** A responsive table: scrolls sideways on narrow screens instead of squeezing columns. */
export function Table({ caption, head, children }: { caption: string; head: ReactNode[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {head.map((cell, index) => (
              <th key={index} scope="col" className="px-4 py-2.5 text-left font-semibold whitespace-nowrap text-slate-700">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

export function Cell({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <td className={`px-4 py-2.5 align-middle text-slate-800 ${className}`}>{children}</td>;
}
