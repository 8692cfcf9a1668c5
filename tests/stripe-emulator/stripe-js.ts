import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import ts from 'typescript';

/**
 * What the emulator serves to browsers (test code, not Stripe): its stand-in for Stripe.js at
 * /v3/ (browser/stripe.ts) and the card element's frame at /emulator/elements/card
 * (browser/card-frame.ts), both written in TypeScript against Stripe.js's own types and compiled
 * here when first asked for.
 */
export const STRIPE_JS_PATH = '/v3/';
const CARD_FRAME_PATH = '/emulator/elements/card';

const compiled = new Map<string, string>();

/** A browser file compiled to a classic script (no module syntax: its imports are types only). */
function script(name: string): string {
  let code = compiled.get(name);
  if (!code) {
    const source = fs.readFileSync(path.join(import.meta.dirname, 'browser', name), 'utf8');
    const output = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext } }).outputText;
    code = `(() => {\n${output.replace(/^export \{\};?\s*$/m, '')}\n})();\n`;
    compiled.set(name, code);
  }
  return code;
}

const CARD_FRAME_STYLE = `
  * { box-sizing: border-box; }
  html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
  body { display: flex; gap: 0.75em; align-items: center; font: 16px/24px system-ui, sans-serif; color: #0f172a; }
  input { border: 0; outline: none; padding: 0; margin: 0; background: transparent; font: inherit; color: inherit; min-width: 0; height: 24px; }
  input::placeholder { color: #94a3b8; }
  input[name="cardnumber"] { flex: 1 1 auto; }
  input[name="exp-date"] { flex: 0 0 4.6em; }
  input[name="cvc"] { flex: 0 0 3.2em; }
`;

function cardFramePage(): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Secure card payment input frame (Stripe emulator)</title>' +
    `<style>${CARD_FRAME_STYLE}</style></head><body>` +
    '<input name="cardnumber" inputmode="numeric" autocomplete="cc-number" placeholder="Card number" aria-label="Credit or debit card number">' +
    '<input name="exp-date" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" aria-label="Credit or debit card expiration date">' +
    '<input name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" aria-label="Credit or debit card CVC/CVV">' +
    `<script>${script('card-frame.ts')}</script></body></html>`
  );
}

/** Answers a browser's request for Stripe.js or the card frame; false for any other address. */
export function serveBrowserFile(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean {
  if (req.method !== 'GET') return false;
  if (url.pathname === STRIPE_JS_PATH) {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(script('stripe.ts'));
    return true;
  }
  if (url.pathname === CARD_FRAME_PATH) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(cardFramePage());
    return true;
  }
  return false;
}
