import type { HostedDesign } from '@/lib/designs/hosted-design';
import { designCssVariables } from '@/lib/designs/style';

export type PreviewDesign = Pick<
  HostedDesign,
  'displayName' | 'brandColor' | 'buttonTextColor' | 'accentColor' | 'cornerStyle' | 'buttonLabel' | 'supportEmail' | 'termsUrl' | 'privacyUrl'
> & {
  logoSrc: string | null;
};

/**
 * A picture of the hosted checkout in a design, for the Branding settings: the same wrapper
 * class and custom properties as /pay/{token}, laid out by the preview's own width (container
 * queries), so one component shows both the desktop and the phone layout. Not interactive.
 */
/** `zoom` shrinks the whole picture (a 900 px desktop layout fits beside the form). */
export function CheckoutPreview({ design, width, label, zoom = 1 }: { design: PreviewDesign; width: number | string; label: string; zoom?: number }) {
  const legal = [design.supportEmail, design.termsUrl ? 'Terms' : null, design.privacyUrl ? 'Privacy' : null].filter(Boolean);
  return (
    <figure className="space-y-2">
      <figcaption className="text-xs font-medium text-slate-600">{label}</figcaption>
      <div className="overflow-hidden rounded-md border border-slate-300 shadow-sm" style={{ width, zoom }}>
        <div className="checkout-design @container bg-slate-50 text-slate-900" style={designCssVariables(design)} aria-hidden="true" inert>
          <div className="flex items-center gap-2 border-b border-slate-200 bg-white px-4 py-2">
            {/* biome-ignore lint/performance/noImgElement: the logo is the chosen file's data: URL or the stored logo's content-addressed path, shown as is; no image optimiser runs. */}
            {design.logoSrc ? <img src={design.logoSrc} alt="" className="h-7 w-auto max-w-28 object-contain" /> : null}
            <span className="font-semibold">{design.displayName || 'Your business'}</span>
          </div>
          <div className="grid gap-4 p-4 @xl:grid-cols-2 @xl:p-6">
            <div>
              <p className="text-xs text-slate-500">{design.displayName || 'Your business'}</p>
              <p className="mt-1 text-lg font-semibold">Sample item</p>
              <div className="mt-3 space-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
                <div className="flex justify-between">
                  <span className="text-slate-500">Price</span>
                  <span>$25.00</span>
                </div>
                <div className="flex justify-between border-t border-slate-100 pt-1 font-semibold">
                  <span>Total</span>
                  <span>$25.00</span>
                </div>
              </div>
            </div>
            <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="font-semibold">Pay with card</p>
              <div className="control h-8 rounded-md border border-slate-300 bg-white" />
              <div className="control h-8 rounded-md border border-slate-300 bg-white" />
              <div className="control rounded-md bg-brand-600 px-3 py-2 text-center font-semibold text-white" data-testid="preview-button">
                {design.buttonLabel} $25.00
              </div>
              <p className="text-center text-xs">
                <span className="font-medium text-brand-700 underline">Pay with your Paybase wallet</span>
              </p>
            </div>
          </div>
          {legal.length ? <p className="pb-3 text-center text-xs font-medium text-brand-700">{legal.join(' · ')}</p> : null}
        </div>
      </div>
    </figure>
  );
}
