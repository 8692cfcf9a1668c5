import Link from 'next/link';

const FEATURES = [
  { title: 'Catalog', text: 'Products, one-time and recurring prices, entitlement policies.' },
  { title: 'Checkout', text: 'Payment links and hosted checkout, exact money in every currency.' },
  { title: 'Subscriptions', text: 'Renewals, proration, dunning and a customer portal.' },
  { title: 'Webhooks', text: 'Signed, at-least-once delivery with a full attempt history.' },
];

export default function HomePage() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-16">
      <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Self-hosted</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Paybase</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600">Payments, subscriptions and webhooks for sellers, on your own PostgreSQL.</p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link href="/docs/api" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
          API reference
        </Link>
        <a href="/api/openapi.json" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100">
          OpenAPI document
        </a>
      </div>
      <nav aria-label="Sign in" className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <Link href="/merchant/sign-in" className="font-medium text-brand-700 underline">
          Seller console
        </Link>
        <Link href="/merchant/sign-up" className="font-medium text-brand-700 underline">
          Create a seller account
        </Link>
        <Link href="/member/sign-in" className="font-medium text-brand-700 underline">
          Wallet
        </Link>
        <Link href="/admin/sign-in" className="font-medium text-brand-700 underline">
          Platform admin
        </Link>
      </nav>
      <ul className="mt-12 grid gap-4 sm:grid-cols-2">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="rounded-lg border border-slate-200 bg-white p-5">
            <h2 className="font-semibold">{feature.title}</h2>
            <p className="mt-1 text-sm text-slate-600">{feature.text}</p>
          </li>
        ))}
      </ul>
    </main>
  );
}
