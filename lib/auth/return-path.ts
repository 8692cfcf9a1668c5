/**
 * Where a wallet sign-in may send the member afterwards: only back to a hosted checkout of this
 * site, `/member/pay/{token}`. Anything else (another site, `//host`, `/\host`, encoded tricks,
 * other pages) is refused, so a sign-in link can never be made to redirect elsewhere.
 */
const WALLET_CHECKOUT_PATH = /^\/member\/pay\/[A-Za-z0-9_-]{1,128}$/;

export function safeWalletReturnPath(value: unknown): string | undefined {
  return typeof value === 'string' && WALLET_CHECKOUT_PATH.test(value) ? value : undefined;
}
