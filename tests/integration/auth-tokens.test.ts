import { describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { getDb } from '@/lib/db/client';
import { refreshTokens } from '@/lib/db/schema';
import { sha256Hex } from '@/lib/secrets';
import { REFRESH_REUSE_GRACE_MS } from '@/lib/auth/sessions';
import { issueAccessToken, verifyAccessToken } from '@/lib/auth/access-tokens';
import { advanceClock, resetClock } from '@/lib/clock';
import { derivedKey } from '@/lib/secret-key';
import { eq } from 'drizzle-orm';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { PASSWORD, freshIp, newAdmin, registerSeller, signInMember, signInSeller } from '../helpers/sessions';

const identity = (accessToken: string) => call('GET', '/api/Auth/Identity', { key: accessToken });
const refresh = (family: string, refreshToken: string) => call('POST', `/api/${family}/Refresh`, { body: { refreshToken } });

describe('seller sign-in and tokens', () => {
  it('signs in with email, password and account type and returns a token pair', async () => {
    const { email, merchantId } = await registerSeller({ accountType: 'Individual' });
    const answer = await call('POST', '/api/MerchantAuth/Login', {
      body: { email: email.toUpperCase(), password: PASSWORD, accountType: 'Individual' },
      headers: freshIp(),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(answer.body.refreshToken).toMatch(/^rt_/);
    const claims = decodeJwt(answer.body.accessToken);
    expect(claims).toMatchObject({ sub: merchantId, aud: 'merchant', iss: 'paybase' });
    expect(claims.exp! - claims.iat!).toBe(900);

    const me = await identity(answer.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ userType: 'Merchant', id: merchantId, email, accountType: 'Individual', status: 'active' });
    expect(me.body.passwordHash).toBeUndefined();
  });

  it('answers the same 401 for a wrong password, an unknown email and a wrong account type', async () => {
    const { email } = await registerSeller();
    const answers = await Promise.all([
      call('POST', '/api/MerchantAuth/Login', { body: { email, password: 'wrong password!' }, headers: freshIp() }),
      call('POST', '/api/MerchantAuth/Login', { body: { email: `nobody-${email}`, password: PASSWORD }, headers: freshIp() }),
      call('POST', '/api/MerchantAuth/Login', { body: { email, password: PASSWORD, accountType: 'Individual' }, headers: freshIp() }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('UNAUTHENTICATED');
      expect(answer.body.detail).toBe(answers[0]!.body.detail);
    }
  });

  it('rotates the refresh token on every refresh; the previous one stops working at once', async () => {
    const { tokens } = await registerSeller();
    const first = await refresh('MerchantAuth', tokens.refreshToken);
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(tokens.refreshToken);
    expect((await identity(first.body.accessToken)).status).toBe(200);

    const second = await refresh('MerchantAuth', first.body.refreshToken);
    expect(second.status).toBe(200);
    expect((await identity(second.body.accessToken)).body.userType).toBe('Merchant');
  });

  it('treats a refresh token used again after the grace window as stolen: 401 INVALID_REFRESH_TOKEN and the whole family is revoked', async () => {
    const { tokens } = await registerSeller();
    const rotated = await refresh('MerchantAuth', tokens.refreshToken);
    expect(rotated.status).toBe(200);
    // The rotation happened longer ago than the grace window.
    await getDb()
      .update(refreshTokens)
      .set({ usedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1000) })
      .where(eq(refreshTokens.tokenHash, sha256Hex(tokens.refreshToken)));

    const replay = await refresh('MerchantAuth', tokens.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_REFRESH_TOKEN');

    // The legitimate holder's newer tokens die with the family.
    const newer = await refresh('MerchantAuth', rotated.body.refreshToken);
    expect(newer.status).toBe(401);
    expect(newer.body.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await identity(rotated.body.accessToken)).status).toBe(401);
  });

  it('answers two concurrent refreshes of one token (two tabs) with the same new pair, and the sign-in lives on', async () => {
    const { tokens } = await registerSeller();
    const answers = await Promise.all([refresh('MerchantAuth', tokens.refreshToken), refresh('MerchantAuth', tokens.refreshToken)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[1]!.body.refreshToken).toBe(answers[0]!.body.refreshToken);
    expect(answers[1]!.body.accessToken).toBe(answers[0]!.body.accessToken);
    expect((await identity(answers[0]!.body.accessToken)).status).toBe(200);
    const next = await refresh('MerchantAuth', answers[0]!.body.refreshToken);
    expect(next.status).toBe(200);
    expect((await identity(next.body.accessToken)).status).toBe(200);
  });

  it('repeats a lost answer within the grace window, but not once the new pair has been used: that is reuse', async () => {
    const { tokens } = await registerSeller();
    const rotated = await refresh('MerchantAuth', tokens.refreshToken);
    const retried = await refresh('MerchantAuth', tokens.refreshToken);
    expect(retried.status).toBe(200);
    expect(retried.body.refreshToken).toBe(rotated.body.refreshToken);

    const moved = await refresh('MerchantAuth', rotated.body.refreshToken);
    expect(moved.status).toBe(200);
    const stale = await refresh('MerchantAuth', tokens.refreshToken);
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await identity(moved.body.accessToken)).status).toBe(401);
  });

  it('answers 401 INVALID_REFRESH_TOKEN for an unknown or expired refresh token', async () => {
    expect((await refresh('MerchantAuth', 'rt_made_up')).body.code).toBe('INVALID_REFRESH_TOKEN');
    const { tokens } = await registerSeller();
    await getDb()
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.tokenHash, sha256Hex(tokens.refreshToken)));
    const expired = await refresh('MerchantAuth', tokens.refreshToken);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it('logout revokes the family: the access token and the refresh token answer 401 afterwards', async () => {
    const { email } = await registerSeller();
    const viaBody = await signInSeller(email);
    const out = await call('POST', '/api/MerchantAuth/Logout', { body: { refreshToken: viaBody.refreshToken } });
    expect(out.status).toBe(204);
    expect((await identity(viaBody.accessToken)).status).toBe(401);
    expect((await refresh('MerchantAuth', viaBody.refreshToken)).status).toBe(401);

    const viaBearer = await signInSeller(email);
    expect((await call('POST', '/api/MerchantAuth/Logout', { key: viaBearer.accessToken })).status).toBe(204);
    expect((await identity(viaBearer.accessToken)).status).toBe(401);
    expect((await refresh('MerchantAuth', viaBearer.refreshToken)).body.code).toBe('INVALID_REFRESH_TOKEN');

    // Other sign-ins of the same seller are untouched.
    const other = await signInSeller(email);
    expect((await identity(other.accessToken)).status).toBe(200);
    expect((await call('POST', '/api/MerchantAuth/Logout', {})).status).toBe(401);
  });
});

describe('access token expiry (15 minutes, on the service clock)', () => {
  it('accepts a token until 15 minutes have passed, then throws TOKEN_EXPIRED', async () => {
    const token = await issueAccessToken({ subjectId: 'mer_x', audience: 'merchant', sessionId: 'ses_x' });
    try {
      advanceClock(15 * 60_000 - 2_000);
      await expect(verifyAccessToken(token, ['merchant'])).resolves.toMatchObject({ subjectId: 'mer_x' });
      advanceClock(3_000);
      await expect(verifyAccessToken(token, ['merchant'])).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    } finally {
      resetClock();
    }
  });

  it('answers 401 TOKEN_EXPIRED over HTTP for a token issued 16 minutes ago; Refresh then gives a working pair', async () => {
    const { tokens } = await registerSeller();
    const claims = decodeJwt(tokens.accessToken);
    let stale: string;
    try {
      advanceClock(-16 * 60_000);
      stale = await issueAccessToken({ subjectId: claims.sub!, audience: 'merchant', sessionId: claims.sid as string });
    } finally {
      resetClock();
    }
    const answer = await identity(stale);
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('TOKEN_EXPIRED');
    const renewed = await refresh('MerchantAuth', tokens.refreshToken);
    expect((await identity(renewed.body.accessToken)).status).toBe(200);
  });

  it('answers 401 UNAUTHENTICATED, for every audience, to a token signed with the service key whose lifetime is not 15 minutes', async () => {
    const holders = [
      { audience: 'merchant', token: (await registerSeller()).tokens.accessToken },
      { audience: 'admin', token: (await newAdmin()).tokens.accessToken },
      { audience: 'member', token: (await signInMember()).tokens.accessToken },
    ];
    for (const { audience, token } of holders) {
      const { sub, sid } = decodeJwt(token);
      const issuedAt = Math.floor(Date.now() / 1000) - 10;
      const signed = (lifetime: number | undefined, withIssuedAt = true) => {
        const jwt = new SignJWT({ sid }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuer('paybase').setSubject(sub!).setAudience(audience);
        if (withIssuedAt) jwt.setIssuedAt(issuedAt);
        if (lifetime !== undefined) jwt.setExpirationTime(issuedAt + lifetime);
        return jwt.sign(derivedKey('jwt-signing'));
      };
      expect((await identity(await signed(900))).status, `${audience}: a 15-minute token`).toBe(200);
      for (const [what, forged] of [
        ['a one-hour lifetime', await signed(3600)],
        ['a ten-year lifetime', await signed(10 * 365 * 86_400)],
        ['a 14-minute lifetime', await signed(840)],
        ['no expiry', await signed(undefined)],
        ['no issue time', await signed(900, false)],
      ] as const) {
        const answer = await identity(forged);
        expect(answer.status, `${audience}: ${what}`).toBe(401);
        expect(answer.body.code, `${audience}: ${what}`).toBe('UNAUTHENTICATED');
      }
    }
  });

  it('answers 401 UNAUTHENTICATED for a JWT not signed by this service', async () => {
    const forged = await new SignJWT({ sid: 'ses_x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('paybase')
      .setSubject('mer_x')
      .setAudience('merchant')
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode('not-the-service-key-not-the-service-key'));
    const answer = await identity(forged);
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('credential kinds and audiences', () => {
  it('refuses an API key on every sign-in API with 403 WRONG_TOKEN_TYPE', async () => {
    const { key } = await newMerchant();
    const { tokens } = await registerSeller();
    const calls = [
      call('GET', '/api/Auth/Identity', { key }),
      call('POST', '/api/MerchantAuth/Login', { key, body: { email: 'a@example.com', password: 'x' } }),
      call('POST', '/api/MerchantAuth/Refresh', { key, body: { refreshToken: tokens.refreshToken } }),
      call('POST', '/api/AdminAuth/Login', { key, body: { name: 'admin', password: 'x' } }),
      call('POST', '/api/MemberAuth/Login', { key, body: { email: 'a@example.com' } }),
      call('GET', '/api/MerchantApiKey', { key }),
      call('GET', '/api/AdminMerchant', { key }),
    ];
    for (const answer of await Promise.all(calls)) {
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body.code).toBe('WRONG_TOKEN_TYPE');
    }
    // The refresh token was not consumed by the refused call.
    expect((await refresh('MerchantAuth', tokens.refreshToken)).status).toBe(200);
  });

  it('refuses a real access token on the developer API with 403 WRONG_TOKEN_TYPE', async () => {
    const { tokens } = await registerSeller();
    for (const path of ['/api/Product', '/api/Customer', '/api/Price']) {
      const answer = await call('GET', path, { key: tokens.accessToken });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('WRONG_TOKEN_TYPE');
    }
  });

  it('answers 403 WRONG_TOKEN_TYPE for a token or refresh token of another audience', async () => {
    const { tokens } = await registerSeller();
    const adminApi = await call('GET', '/api/AdminMerchant', { key: tokens.accessToken });
    expect(adminApi.status).toBe(403);
    expect(adminApi.body.code).toBe('WRONG_TOKEN_TYPE');

    const adminRefresh = await refresh('AdminAuth', tokens.refreshToken);
    expect(adminRefresh.status).toBe(403);
    expect(adminRefresh.body.code).toBe('WRONG_TOKEN_TYPE');
    const memberLogout = await call('POST', '/api/MemberAuth/Logout', { key: tokens.accessToken });
    expect(memberLogout.body.code).toBe('WRONG_TOKEN_TYPE');
    // Still signed in: the refused calls changed nothing.
    expect((await refresh('MerchantAuth', tokens.refreshToken)).status).toBe(200);
  });

  it('answers 401 without a credential on protected sign-in APIs', async () => {
    for (const path of ['/api/Auth/Identity', '/api/MerchantApiKey', '/api/AdminMerchant']) {
      const answer = await call('GET', path);
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('UNAUTHENTICATED');
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
    }
  });
});

describe('seller sign-up', () => {
  it('registers, signs in, and refuses a taken email (any case) with 409', async () => {
    const { email, tokens } = await registerSeller();
    expect((await identity(tokens.accessToken)).body.email).toBe(email);
    const again = await call('POST', '/api/MerchantAuth/Register', {
      body: { email: email.toUpperCase(), password: PASSWORD, name: 'Dup', accountType: 'Business' },
      headers: freshIp(),
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
  });

  it('validates the body: short password, bad email, unknown account type, unknown field', async () => {
    const answer = await call('POST', '/api/MerchantAuth/Register', {
      body: { email: 'not-an-email', password: 'short', name: '', accountType: 'Charity', extra: 1 },
      headers: freshIp(),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    const paths = answer.body.errors.map((e: { path: string }) => e.path);
    for (const field of ['email', 'password', 'name', 'accountType']) expect(paths.some((p: string) => p.includes(field))).toBe(true);
  });
});

describe('API reference', () => {
  it('documents the sign-in APIs with their own bearer scheme', async () => {
    const doc = (await call('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/MerchantAuth/Login'].post.security).toEqual([]);
    expect(doc.paths['/api/Auth/Identity'].get.security).toEqual([{ signInToken: [] }]);
    expect(doc.paths['/api/Auth/Identity'].get['x-audiences']).toEqual(['admin', 'merchant', 'member']);
    expect(doc.paths['/api/MerchantApiKey/{apiKeyId}/Revoke'].post['x-audiences']).toEqual(['merchant']);
    expect(doc.paths['/api/AdminAuth/Refresh'].post.requestBody).toEqual({ $ref: '#/components/requestBodies/RefreshBody' });
    expect(doc.components.requestBodies.RefreshBody.content['application/json'].schema.properties.refreshToken).toBeTruthy();
    expect(doc.components.securitySchemes.signInToken.bearerFormat).toBe('JWT');
  });
});
