import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';

/**
 * Every page and route the app has answers with the security headers (lib/http/security-headers.ts,
 * docs/operations.md "Security headers"): the templates are read from app/, so a new page is
 * covered without a change here. A template's dynamic segments get a made-up value; its answer
 * (the page, a redirect to sign-in, a 404, a 405) must carry the headers all the same.
 */
function templates(kind: 'page.tsx' | 'route.ts'): string[] {
  const found: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // Route groups `(consoles)` are not part of the address; `[param]` gets a value.
        const segment = /^\(.*\)$/.test(entry.name) ? [] : [entry.name.replace(/^\[.*\]$/, 'x0')];
        walk(path.join(dir, entry.name), [...segments, ...segment]);
      } else if (entry.name === kind) found.push(`/${segments.join('/')}`);
    }
  };
  walk('app', []);
  return found.sort();
}

const PAGE_POLICY = [
  "default-src 'self'",
  /script-src 'self' 'nonce-[A-Za-z0-9+/]{24}' 'strict-dynamic'/,
  /style-src 'self' 'nonce-[A-Za-z0-9+/]{24}'/,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

async function headersOf(pathname: string, init: RequestInit = {}) {
  const answer = await fetch(`${baseUrl()}${pathname}`, { redirect: 'manual', ...init });
  const body = await answer.text();
  return { status: answer.status, headers: answer.headers, body };
}

function expectCommonHeaders(pathname: string, headers: Headers) {
  expect(headers.get('x-frame-options'), pathname).toBe('DENY');
  expect(headers.get('x-content-type-options'), pathname).toBe('nosniff');
  expect(headers.get('referrer-policy'), pathname).toBe('strict-origin-when-cross-origin');
  // Not production: a development machine on plain http is never pinned to HTTPS.
  expect(headers.get('strict-transport-security'), pathname).toBeNull();
}

function expectPagePolicy(pathname: string, policy: string | null) {
  expect(policy, pathname).not.toBeNull();
  for (const part of PAGE_POLICY) {
    if (typeof part === 'string') expect(policy!.split('; '), pathname).toContain(part);
    else expect(policy, pathname).toMatch(part);
  }
}

describe('security headers', () => {
  it('on every page template, whatever it answers (page, redirect, 404)', async () => {
    const pages = templates('page.tsx');
    expect(pages.length).toBeGreaterThan(40);
    for (const page of pages) {
      const { status, headers } = await headersOf(page);
      expect([200, 303, 307, 308, 404], `${page} answered ${status}`).toContain(status);
      expectPagePolicy(page, headers.get('content-security-policy'));
      expectCommonHeaders(page, headers);
    }
  });

  it("on every route: JSON answers may load nothing; a POST-only route's 405 and an unknown API path too", async () => {
    const { key } = await newMerchant();
    for (const route of templates('route.ts')) {
      const { status, headers } = await headersOf(route, { headers: { authorization: `Bearer ${key}` } });
      expect(status, route).toBeLessThan(500);
      const policy = headers.get('content-security-policy');
      if (route.startsWith('/api/')) expect(policy, route).toBe("default-src 'none'; frame-ancestors 'none'");
      else expectPagePolicy(route, policy);
      expectCommonHeaders(route, headers);
      // An API error is never stored by a cache, wherever it was answered (the route or the front door).
      if (route.startsWith('/api/') && status >= 400) expect(headers.get('cache-control'), route).toContain('no-store');
    }
    const unknown = await headersOf('/api/NoSuchThing', { method: 'PUT' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    expect(unknown.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expectCommonHeaders('/api/NoSuchThing', unknown.headers);
  });

  it("gives each page answer its own nonce, and Next.js's scripts carry it", async () => {
    const first = await headersOf('/merchant/sign-in');
    const second = await headersOf('/merchant/sign-in');
    const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? '')?.[1];
    const nonce = nonceOf(first.headers.get('content-security-policy'));
    expect(nonce).toBeDefined();
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonce);
    const scripts = [...first.body.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
  });
});
