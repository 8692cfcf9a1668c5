import { z } from 'zod';
import { Email, Timestamp } from '../http/schemas';
import { BUTTON_LABELS, CORNER_STYLES, DESIGN_LOCALES } from './design-options';

/** The largest logo accepted, in bytes (before base64). */
export const MAX_LOGO_BYTES = 256 * 1024;

/** `#rgb` or `#rrggbb`, stored and answered as lowercase `#rrggbb`. */
const Colour = z
  .string()
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'A hex colour: #rrggbb or #rgb.')
  .transform((value) => (value.length === 4 ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value).toLowerCase());

const PublicUrl = z.url({ protocol: /^https?$/ }).max(2048);

const Fields = {
  displayName: z.string().trim().min(1).max(100).meta({ description: 'The name shown beside the logo at the top of the hosted pages and emails.' }),
  logoBase64: z
    .string()
    // The body limit (1 MB) bounds it; the decoded size is checked against MAX_LOGO_BYTES with its own message.
    .max(1_048_576)
    .nullable()
    .meta({
      description: `The logo image's bytes, base64-encoded: PNG, JPEG or WebP, at most ${MAX_LOGO_BYTES / 1024} KiB (SVG is refused: it can carry script). \`null\` removes the logo. Answered as \`logoUrl\`.`,
    }),
  brandColor: Colour.meta({ description: 'Fills the pay button; buttonTextColor must read on it (WCAG AA 4.5:1).', example: '#3856e0' }),
  buttonTextColor: Colour.meta({ description: "The pay button's text.", example: '#ffffff' }),
  accentColor: Colour.meta({
    description: 'Links and the focus outline on the hosted pages; must read on the page background (WCAG AA 4.5:1).',
    example: '#2c43b8',
  }),
  cornerStyle: z.enum(CORNER_STYLES),
  buttonLabel: z.enum(BUTTON_LABELS).meta({ description: 'The verb on the pay button of a one-time payment ("Donate €10.00").' }),
  supportEmail: Email.nullable().meta({ description: "Shown to customers; null falls back to the account's support email." }),
  supportUrl: PublicUrl.nullable().meta({ description: "Shown to customers; null falls back to the account's support URL." }),
  termsUrl: PublicUrl.nullable(),
  privacyUrl: PublicUrl.nullable(),
  defaultLocale: z.enum(DESIGN_LOCALES).nullable().meta({
    description:
      "The language of the hosted pages, chosen before the customer's browser language; null (the default) follows the browser's Accept-Language, then English.",
  }),
  isDefault: z.boolean().meta({
    description:
      'Styles every link without a designId, the customer portal and emails. Setting it moves the default from the previous design; one default per seller.',
  }),
};

export const CreateCheckoutDesignBody = z.strictObject({
  displayName: Fields.displayName,
  logoBase64: Fields.logoBase64.optional(),
  brandColor: Fields.brandColor.default('#3856e0'),
  buttonTextColor: Fields.buttonTextColor.default('#ffffff'),
  accentColor: Fields.accentColor.default('#2c43b8'),
  cornerStyle: Fields.cornerStyle.default('rounded'),
  buttonLabel: Fields.buttonLabel.default('Pay'),
  supportEmail: Fields.supportEmail.optional(),
  supportUrl: Fields.supportUrl.optional(),
  termsUrl: Fields.termsUrl.optional(),
  privacyUrl: Fields.privacyUrl.optional(),
  defaultLocale: Fields.defaultLocale.default(null),
  isDefault: Fields.isDefault.default(false),
});

/** Every field optional; `null` clears the logo and the links. */
export const UpdateCheckoutDesignBody = z.strictObject({
  displayName: Fields.displayName.optional(),
  logoBase64: Fields.logoBase64.optional(),
  brandColor: Fields.brandColor.optional(),
  buttonTextColor: Fields.buttonTextColor.optional(),
  accentColor: Fields.accentColor.optional(),
  cornerStyle: Fields.cornerStyle.optional(),
  buttonLabel: Fields.buttonLabel.optional(),
  supportEmail: Fields.supportEmail.optional(),
  supportUrl: Fields.supportUrl.optional(),
  termsUrl: Fields.termsUrl.optional(),
  privacyUrl: Fields.privacyUrl.optional(),
  defaultLocale: Fields.defaultLocale.optional(),
  isDefault: Fields.isDefault.optional(),
});

export const CheckoutDesignResponse = z.object({
  id: z.string(),
  displayName: z.string(),
  logoUrl: z
    .string()
    .nullable()
    .meta({ description: 'The logo, at an address that carries its content hash (cached for good; a new logo gets a new address).' }),
  brandColor: z.string(),
  buttonTextColor: z.string(),
  accentColor: z.string(),
  cornerStyle: z.enum(CORNER_STYLES),
  buttonLabel: z.enum(BUTTON_LABELS),
  supportEmail: z.string().nullable(),
  supportUrl: z.string().nullable(),
  termsUrl: z.string().nullable(),
  privacyUrl: z.string().nullable(),
  defaultLocale: z.enum(DESIGN_LOCALES).nullable(),
  isDefault: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
