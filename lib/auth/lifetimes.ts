/** Access tokens live 15 minutes (the spec's limit). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** A refresh token works for 30 days after it was issued; every refresh issues a new one. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Wallet sign-in links work once, for 15 minutes. */
export const LOGIN_TOKEN_TTL_SECONDS = 15 * 60;
/** Password-reset links work once, for 30 minutes. */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;
/** The second step of a two-factor sign-in must follow the password within 5 minutes. */
export const TWO_FACTOR_CHALLENGE_TTL_SECONDS = 5 * 60;
/** Team invitations work once, for 7 days. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Email-verification links work once, for 24 hours (a resend replaces the previous one). */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
