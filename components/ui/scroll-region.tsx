import type { ReactNode } from 'react';

/**
 * A box whose content scrolls (a wide table, a long JSON body): a labelled region in the tab
 * order, so keyboard users can scroll it too (WCAG 2.1.1; axe `scrollable-region-focusable`,
 * which e2e/every-page.spec.ts enforces). `as="pre"` makes the preformatted text itself the
 * scrolling box.
 * Biome's `noNoninteractiveTabindex` forbids `tabIndex` on non-interactive elements; this is the
 * one place that sets it, for this reason.
 */
export function ScrollRegion({
  as = 'section',
  label,
  className,
  testId,
  children,
}: {
  /** `group`: a labelled box that is no landmark (a table's, whose section around it often bears the same name: axe `landmark-unique`). */
  as?: 'section' | 'pre' | 'group';
  label: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  if (as === 'pre') {
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a scrolling <pre> takes focus (above), and its label is what a screen reader announces at that stop; a region role would repeat the name of the card around it.
      <pre aria-label={label} tabIndex={0} className={className} data-testid={testId}>
        {children}
      </pre>
    );
  }
  if (as === 'group') {
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrolling box must take focus (above); a <fieldset> would group form controls, this box holds a table.
      <div role="group" aria-label={label} tabIndex={0} className={className} data-testid={testId}>
        {children}
      </div>
    );
  }
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus (above).
    <section aria-label={label} tabIndex={0} className={className} data-testid={testId}>
      {children}
    </section>
  );
}
