/** Access tokens live 15 minutes (the spec's limit). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** A refresh token works for 30 days after it was issued; every refresh issues a new one. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Wallet sign-in links work once, for 15 minutes. */
export const LOGIN_TOKEN_TTL_SECONDS = 15 * 60;
