import type { ReactNode } from 'react';
import { ScrollRegion } from './scroll-region';

/** What a screen reader hears for a column without a visible heading (the row's buttons and links). */
const BLANK_HEADING = 'Actions';

/**
 * A responsive table: scrolls sideways inside its own box on narrow screens instead of
 * squeezing columns or widening the page. The box is a labelled group in the tab order, so
 * keyboard users can scroll it too (WCAG 2.1.1; axe `scrollable-region-focusable`); the table is
 * found by its caption (role `table`), and the box is no landmark, so a section of the same name
 * around it is not named twice (axe `landmark-unique`). The box is `relative`, so the hidden
 * heading text scrolls and is clipped with it instead of widening the page. A blank
 * heading (`''`, a column of row actions) is named for screen readers only (axe `empty-table-header`).
 */
export function Table({ caption, head, children }: { caption: string; head: ReactNode[]; children: ReactNode }) {
  return (
    <ScrollRegion
      as="group"
      label={caption}
      className="relative max-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {head.map((cell, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a column's position is its identity (headings are fixed per table, and two may be blank).
              <th key={index} scope="col" className="px-4 py-2.5 text-left font-semibold whitespace-nowrap text-slate-700">
                {cell === '' ? <span className="sr-only">{BLANK_HEADING}</span> : cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </ScrollRegion>
  );
}

export function Cell({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <td className={`px-4 py-2.5 align-middle text-slate-800 ${className}`}>{children}</td>;
}
