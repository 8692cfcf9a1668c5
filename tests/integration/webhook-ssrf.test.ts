import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUrlShape, isAllowedAddress, resolveSafeAddress, UnsafeUrlError, type HostResolver } from '@/lib/webhooks/url-guard';
import { createWebhookAgent, sendWebhookRequest } from '@/lib/webhooks/send';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function refusal(url: string, resolver?: HostResolver): Promise<string | undefined> {
  try {
    await resolveSafeAddress(checkUrlShape(url), { allowPrivate: false, resolver });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafeUrlError);
    return (error as Error).message;
  }
}

const publicResolver: HostResolver = async () => [{ address: '93.184.215.14', family: 4 }];

describe('SSRF protection', () => {
  it('refuses loopback, private, link-local, CGNAT and metadata addresses at registration', async () => {
    for (const url of [
      'http://127.0.0.1/hook',
      'http://127.8.9.10:8080/hook',
      'http://10.0.0.5/hook',
      'http://172.16.3.4/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/hook',
      'http://100.100.100.200/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00:ec2::254]/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
      'http://[::127.0.0.1]/hook',
      'http://[::10.0.0.5]/hook',
    ]) {
      expect(await refusal(url), url).toMatch(/non-public address/);
    }
  });

  it('refuses a host name that resolves to loopback (real DNS: localhost)', async () => {
    expect(await refusal('http://localhost:3000/hook')).toMatch(/resolves to (127\.0\.0\.1|::1)/);
  });

  it('refuses a name when any of its addresses is private', async () => {
    const mixed: HostResolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.1.1.1', family: 4 },
    ];
    expect(await refusal('https://mixed.example/hook', mixed)).toMatch(/10\.1\.1\.1/);
  });

  it('allows public addresses, and private ones only when WEBHOOK_ALLOW_PRIVATE_URLS is set', async () => {
    expect(await refusal('https://hooks.example/receive', publicResolver)).toBeUndefined();
    expect(await refusal('https://93.184.215.14/receive')).toBeUndefined();
    expect(await refusal('https://[2001:4860:4860::8888]/receive')).toBeUndefined();
    expect(isAllowedAddress('10.0.0.5', true)).toBe(true);
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('0.0.0.0', true)).toBe(false);
    expect(isAllowedAddress('224.0.0.1', true)).toBe(false);
  });

  it('checks again at connect time: nothing reaches a loopback receiver when private addresses are refused', async () => {
    const outcome = await sendWebhookRequest({
      url: `${receiver.url}/blocked`,
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      timeoutMs: 1000,
      allowPrivate: false,
    });
    expect(outcome.succeeded).toBe(false);
    expect(outcome.error).toMatch(/^Refused: .*non-public address/);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses the deprecated IPv4-compatible IPv6 form (::a.b.c.d) always, at registration and at connect time', async () => {
    expect(isAllowedAddress('::7f00:1', true)).toBe(false);
    expect(isAllowedAddress('::808:808', false)).toBe(false);
    expect(isAllowedAddress('::1', true)).toBe(true);
    const registered = await refusal('http://[::127.0.0.1]/hook');
    expect(registered).toMatch(/non-public address/);
    const literal = await sendWebhookRequest({
      url: `http://[::127.0.0.1]:${receiver.port}/compat`,
      headers: {},
      body: '{}',
      timeoutMs: 1000,
      allowPrivate: true,
    });
    expect(literal.error).toMatch(/^Refused: .*non-public address/);
    const resolved = await sendWebhookRequest({
      url: `http://compat.example.test:${receiver.port}/compat`,
      headers: {},
      body: '{}',
      timeoutMs: 1000,
      allowPrivate: true,
      resolver: async () => [{ address: '::7f00:1', family: 6 }],
    });
    expect(resolved.error).toMatch(/^Refused: .*::7f00:1/);
    expect(receiver.received.filter((r) => r.path === '/compat')).toHaveLength(0);
  });

  it('keeps checking on a pooled keep-alive agent: every new connection is looked up and checked again', async () => {
    const answers = ['127.0.0.1', '10.9.9.9'];
    let lookups = 0;
    const agent = createWebhookAgent({ allowPrivate: false, timeoutMs: 2000, resolver: async () => [{ address: answers[lookups++ % 2]!, family: 4 }] });
    try {
      const first = await sendWebhookRequest({ url: `http://pooled.example.test:${receiver.port}/pooled`, headers: {}, body: '{}', timeoutMs: 2000 }, agent);
      expect(first.error).toMatch(/^Refused: .*127\.0\.0\.1/);
      const second = await sendWebhookRequest({ url: `http://pooled.example.test:${receiver.port}/pooled`, headers: {}, body: '{}', timeoutMs: 2000 }, agent);
      expect(second.error).toMatch(/^Refused: .*10\.9\.9\.9/);
      expect(lookups).toBe(2);
      expect(receiver.received.filter((r) => r.path === '/pooled')).toHaveLength(0);
    } finally {
      await agent.close();
    }
  });

  it('resolves once and connects to the checked address (a rebinding DNS answer gets no second look-up)', async () => {
    const answers = ['127.0.0.1', '10.9.9.9'];
    let lookups = 0;
    const rebinding: HostResolver = async () => [{ address: answers[lookups++]!, family: 4 }];
    const outcome = await sendWebhookRequest({
      url: `http://hooks.rebind.test:${receiver.port}/pinned`,
      headers: { 'Content-Type': 'application/json' },
      body: '{"pinned":true}',
      timeoutMs: 2000,
      allowPrivate: true, // the receiver is on loopback; what matters is which address is used
      resolver: rebinding,
    });
    expect(outcome).toMatchObject({ succeeded: true, status: 200 });
    expect(lookups).toBe(1);
    const request = receiver.received.find((r) => r.path === '/pinned')!;
    expect(request.headers.host).toBe(`hooks.rebind.test:${receiver.port}`);
    expect(request.body).toBe('{"pinned":true}');

    lookups = 1; // now the name answers a private address: refused before any connection
    const refused = await sendWebhookRequest({
      url: `http://hooks.rebind.test:${receiver.port}/pinned`,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
      allowPrivate: false,
      resolver: rebinding,
    });
    expect(refused.error).toMatch(/10\.9\.9\.9/);
    expect(receiver.received.filter((r) => r.path === '/pinned')).toHaveLength(1);
  });
});
