import fs from 'node:fs';
import path from 'node:path';
import { config } from '../config';
import type { Db } from '../db/client';
import { ensureAdmin } from '../admins/admins';
import { createMerchant, findMerchantByEmail } from '../merchants/merchants';
import { createApiKey, findApiKeyBySecret } from '../auth/api-keys';
import { SCOPES } from '../http/scopes';

export const LOCAL_DEFAULTS = {
  adminName: 'admin',
  adminPassword: 'admin-password',
  demoMerchantEmail: 'demo@example.com',
  demoMerchantPassword: 'demo-password',
} as const;

/** A password the operator configured is never printed: `configuredIn` names its variable instead. */
export type SeededPassword = { configuredIn: string } | { localDefault: string };

export interface SeedResult {
  admin?: { name: string; password: SeededPassword };
  demoMerchant?: { email: string; password: SeededPassword };
  demoApiKey?: string;
}

/**
 * Seeds the platform admin and, outside production, a demo merchant with an all-scope API key.
 * The demo key's secret is kept in the data directory (mode 0600) so every start can print it.
 */
export async function seed(db: Db, options: { dataDir: string; production: boolean }): Promise<SeedResult> {
  const result: SeedResult = {};
  const adminPassword = config.seed.adminPassword ?? (options.production ? undefined : LOCAL_DEFAULTS.adminPassword);
  if (adminPassword) {
    const name = config.seed.adminName ?? LOCAL_DEFAULTS.adminName;
    await ensureAdmin(db, { name, password: adminPassword });
    result.admin = { name, password: seededPassword('ADMIN_PASSWORD', config.seed.adminPassword, adminPassword) };
  }
  if (options.production && !config.seed.demoInProduction) return result;

  const email = config.seed.demoMerchantEmail ?? LOCAL_DEFAULTS.demoMerchantEmail;
  const password = config.seed.demoMerchantPassword ?? LOCAL_DEFAULTS.demoMerchantPassword;
  const merchant =
    (await findMerchantByEmail(db, email)) ?? (await createMerchant(db, { email, password, name: 'Demo Store', accountType: 'Business', emailVerified: true }));
  result.demoMerchant = { email, password: seededPassword('DEMO_MERCHANT_PASSWORD', config.seed.demoMerchantPassword, password) };

  const keyFile = path.join(options.dataDir, 'demo-api-key');
  const secret = config.seed.demoApiKey ?? (fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8').trim() : undefined);
  const existing = secret ? await findApiKeyBySecret(db, secret) : undefined;
  if (existing && existing.merchantId === merchant.id && !existing.revokedAt) {
    result.demoApiKey = secret;
  } else if (!existing) {
    const created = await createApiKey(db, { merchantId: merchant.id, name: 'Demo key (all scopes)', scopes: SCOPES, secret });
    result.demoApiKey = created.secret;
  }
  if (result.demoApiKey && !config.seed.demoApiKey) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    fs.writeFileSync(keyFile, result.demoApiKey, { mode: 0o600 });
  }
  return result;
}

function seededPassword(variable: string, configured: string | undefined, password: string): SeededPassword {
  return configured === undefined ? { localDefault: password } : { configuredIn: variable };
}
