import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';
import { documentLanguage } from './document-language';

export const metadata: Metadata = {
  title: { default: 'Paybase', template: '%s · Paybase' },
  description: 'Self-hostable payments, subscriptions and webhooks for sellers.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, never prerendered at build: its scripts carry the
  // request's CSP nonce (proxy.ts), which a page made at build time could not know.
  await connection();
  return (
    <html lang={await documentLanguage()}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
