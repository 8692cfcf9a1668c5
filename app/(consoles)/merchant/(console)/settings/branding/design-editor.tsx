'use client';

import { useEffect, useState } from 'react';
import type { CheckoutDesignResponse } from '@/lib/designs/schemas';
import { BUTTON_LABELS, CORNER_STYLES, DESIGN_LOCALES } from '@/lib/designs/design-options';
import { AA_TEXT, contrastOnPage, contrastRatio, formatRatio } from '@/lib/designs/contrast';
import { CheckoutPreview } from '@/components/checkout/checkout-preview';
import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { z } from 'zod';
import { ScrollRegion } from '@/components/ui/scroll-region';

type Design = z.output<typeof CheckoutDesignResponse>;

const LOCALE_NAMES: Record<(typeof DESIGN_LOCALES)[number], string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', ja: '日本語' };
const NEW_DESIGN = {
  displayName: '',
  brandColor: '#3856e0',
  buttonTextColor: '#ffffff',
  accentColor: '#2c43b8',
  cornerStyle: 'rounded',
  buttonLabel: 'Pay',
  supportEmail: '',
  supportUrl: '',
  termsUrl: '',
  privacyUrl: '',
  defaultLocale: '',
} as const;

/** Reads as the server will judge it, so the seller sees a failing pair before saving. */
function ContrastNote({ ratio }: { ratio: number }) {
  const ok = ratio >= AA_TEXT;
  return (
    <p className={`mt-1 text-xs ${ok ? 'text-green-800' : 'font-medium text-red-700'}`} aria-live="polite">
      Contrast {formatRatio(ratio)} {ok ? '— passes WCAG AA' : `— below the ${AA_TEXT}:1 WCAG AA needs`}
    </p>
  );
}

/** The Branding form with a live preview of the hosted checkout at desktop and phone widths. */
export function DesignEditor({ action, design, canEdit }: { action: FormActionFn; design?: Design; canEdit: boolean }) {
  const [values, setValues] = useState(() => {
    const start = design ?? NEW_DESIGN;
    return Object.fromEntries(Object.keys(NEW_DESIGN).map((key) => [key, String(start[key as keyof typeof start] ?? '')])) as Record<
      keyof typeof NEW_DESIGN,
      string
    >;
  });
  const [uploadedLogo, setUploadedLogo] = useState<string | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  useEffect(() => () => (uploadedLogo ? URL.revokeObjectURL(uploadedLogo) : undefined), [uploadedLogo]);
  const bind = (name: keyof typeof NEW_DESIGN) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });
  const preview = {
    ...values,
    cornerStyle: values.cornerStyle as Design['cornerStyle'],
    buttonLabel: values.buttonLabel as Design['buttonLabel'],
    supportEmail: values.supportEmail || null,
    termsUrl: values.termsUrl || null,
    privacyUrl: values.privacyUrl || null,
    logoSrc: uploadedLogo ?? (removeLogo ? null : design?.logoUrl ? new URL(design.logoUrl).pathname : null),
  };
  return (
    <div className="grid gap-8 xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
      <ActionForm action={action} className="space-y-5" ariaLabel={design ? `Edit design ${design.displayName}` : 'New design'}>
        <fieldset disabled={!canEdit} className="space-y-4">
          {design ? <input type="hidden" name="designId" value={design.id} /> : null}
          <TextField label="Display name" {...bind('displayName')} required maxLength={100} hint="Shown beside the logo on your checkout, portal and emails." />
          <TextField
            label="Logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            hint="PNG, JPEG or WebP, at most 256 KB. SVG is not accepted."
            onChange={(event) => {
              const file = event.target.files?.[0];
              setUploadedLogo(file ? URL.createObjectURL(file) : null);
            }}
          />
          {design?.logoUrl ? (
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                name="removeLogo"
                checked={removeLogo}
                onChange={(event) => setRemoveLogo(event.target.checked)}
                className="h-4 w-4 accent-brand-600"
              />{' '}
              Remove the current logo
            </label>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-3">
            <div>
              <TextField label="Brand colour" type="color" className="[&_input]:h-10 [&_input]:p-1" {...bind('brandColor')} hint="The pay button." />
            </div>
            <div>
              <TextField label="Button text" type="color" className="[&_input]:h-10 [&_input]:p-1" {...bind('buttonTextColor')} />
              <ContrastNote ratio={contrastRatio(values.buttonTextColor, values.brandColor)} />
            </div>
            <div>
              <TextField label="Accent colour" type="color" className="[&_input]:h-10 [&_input]:p-1" {...bind('accentColor')} hint="Links and focus." />
              <ContrastNote ratio={contrastOnPage(values.accentColor)} />
            </div>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField
              label="Corners"
              {...bind('cornerStyle')}
              options={CORNER_STYLES.map((style) => ({ value: style, label: style[0]!.toUpperCase() + style.slice(1) }))}
            />
            <SelectField label="Button label" {...bind('buttonLabel')} options={BUTTON_LABELS} />
            <SelectField
              label="Default language"
              {...bind('defaultLocale')}
              options={[{ value: '', label: 'Browser' }, ...DESIGN_LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] }))]}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Support email" type="email" {...bind('supportEmail')} hint="Optional; else your account's." />
            <TextField label="Support URL" type="url" placeholder="https://" {...bind('supportUrl')} />
            <TextField label="Terms URL" type="url" placeholder="https://" {...bind('termsUrl')} />
            <TextField label="Privacy URL" type="url" placeholder="https://" {...bind('privacyUrl')} />
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name="isDefault" defaultChecked={design?.isDefault} className="h-4 w-4 accent-brand-600" /> Use for links without a design,
            the customer portal and emails (your default)
          </label>
        </fieldset>
        {canEdit ? (
          <SubmitButton pendingText="Saving…">{design ? 'Save design' : 'Create design'}</SubmitButton>
        ) : (
          <p className="text-sm text-slate-600">Only Owners and Admins can change branding.</p>
        )}
      </ActionForm>
      <section aria-label="Live preview" className="min-w-0 space-y-4" data-testid="design-preview">
        <h2 className="text-sm font-semibold text-slate-900">Live preview</h2>
        <ScrollRegion label="Desktop preview" className="max-w-full overflow-x-auto">
          <CheckoutPreview design={preview} width={900} zoom={0.55} label="Desktop" />
        </ScrollRegion>
        <CheckoutPreview design={preview} width="min(360px, 100%)" label="Phone" />
      </section>
    </div>
  );
}
