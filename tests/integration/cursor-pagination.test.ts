import { beforeAll, describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';

/**
 * Cursor paging beside page numbers on every list (docs/api.md, "Lists"): `startingAfter` /
 * `endingBefore` name an item of the list, in the list's order, with its filters.
 */
type Api = Awaited<ReturnType<typeof newMerchant>>['api'];
type Listed = { id: string; status?: string };

let seller: Awaited<ReturnType<typeof newMerchant>>;
let customerIds: string[] = []; // newest first, as the default order lists them

const ids = (answer: { body: { data: Listed[] } }) => answer.body.data.map((item) => item.id);

async function everything(api: Api, path: string): Promise<string[]> {
  const answer = await api.get(`${path}${path.includes('?') ? '&' : '?'}pageSize=100`);
  expect(answer.status).toBe(200);
  return ids(answer);
}

beforeAll(async () => {
  seller = await newMerchant();
  for (let i = 0; i < 7; i++) {
    // Every third customer archived, for the filter.
    const created = await seller.api.post('/api/Customer', { email: `cursor-${i}@example.com`, status: i % 3 === 0 ? 'archived' : 'active' });
    expect(created.status).toBe(201);
  }
  customerIds = await everything(seller.api, '/api/Customer');
  expect(customerIds).toHaveLength(7);
});

describe('cursor paging', () => {
  it('walks forward with startingAfter from the first page to the last, then finds nothing after the last item', async () => {
    const first = await seller.api.get('/api/Customer?pageSize=3');
    expect(first.body).toMatchObject({ page: 1, pageSize: 3, totalCount: 7, hasMore: true });
    const second = await seller.api.get(`/api/Customer?pageSize=3&startingAfter=${ids(first).at(-1)}`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ page: 0, pageSize: 3, totalCount: 7, hasMore: true });
    const third = await seller.api.get(`/api/Customer?pageSize=3&startingAfter=${ids(second).at(-1)}`);
    expect(third.body).toMatchObject({ page: 0, totalCount: 7, hasMore: false });
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(customerIds);

    const afterLast = await seller.api.get(`/api/Customer?startingAfter=${customerIds.at(-1)}`);
    expect(afterLast.status).toBe(200);
    expect(afterLast.body).toEqual({ data: [], page: 0, pageSize: 20, totalCount: 7, hasMore: false });
  });

  it('walks backward with endingBefore, each page in the list order, hasMore telling of items before it', async () => {
    const beforeLast = await seller.api.get(`/api/Customer?pageSize=3&endingBefore=${customerIds.at(-1)}`);
    expect(ids(beforeLast)).toEqual(customerIds.slice(3, 6));
    expect(beforeLast.body.hasMore).toBe(true);
    const earlier = await seller.api.get(`/api/Customer?pageSize=3&endingBefore=${ids(beforeLast)[0]}`);
    expect(ids(earlier)).toEqual(customerIds.slice(0, 3));
    expect(earlier.body.hasMore).toBe(false);

    const beforeFirst = await seller.api.get(`/api/Customer?endingBefore=${customerIds[0]}`);
    expect(beforeFirst.body).toMatchObject({ data: [], hasMore: false, totalCount: 7 });
  });

  it('follows orderDirection=asc both ways', async () => {
    const oldestFirst = [...customerIds].reverse();
    const after = await seller.api.get(`/api/Customer?orderDirection=asc&pageSize=2&startingAfter=${oldestFirst[1]}`);
    expect(ids(after)).toEqual(oldestFirst.slice(2, 4));
    expect(after.body.hasMore).toBe(true);
    const before = await seller.api.get(`/api/Customer?orderDirection=asc&pageSize=2&endingBefore=${oldestFirst[1]}`);
    expect(ids(before)).toEqual(oldestFirst.slice(0, 1));
    expect(before.body.hasMore).toBe(false);
  });

  it("keeps a list's filters, and a cursor item need not match them", async () => {
    const archived = await everything(seller.api, '/api/Customer?status=archived');
    expect(archived).toHaveLength(3);
    const page = await seller.api.get(`/api/Customer?status=archived&pageSize=1&startingAfter=${archived[0]}`);
    expect(ids(page)).toEqual([archived[1]]);
    expect(page.body).toMatchObject({ totalCount: 3, hasMore: true });
    // An active customer as the cursor: the archived ones after its place in the order.
    const active = customerIds[1]!;
    const afterActive = await seller.api.get(`/api/Customer?status=archived&startingAfter=${active}`);
    expect(ids(afterActive)).toEqual(archived.filter((id) => customerIds.indexOf(id) > 1));
    expect(afterActive.body.data.every((customer: Listed) => customer.status === 'archived')).toBe(true);
  });

  it('keeps the creation window', async () => {
    const all = (await seller.api.get('/api/Customer?pageSize=100')).body.data as { id: string; createdAt: string }[];
    const createdFrom = encodeURIComponent(all[3]!.createdAt);
    const page = await seller.api.get(`/api/Customer?createdFrom=${createdFrom}&startingAfter=${customerIds[1]}`);
    expect(ids(page)).toEqual(
      all
        .filter((customer) => customer.createdAt >= all[3]!.createdAt)
        .map((customer) => customer.id)
        .slice(2),
    );
    expect(ids(page)).toContain(customerIds[3]);
    expect(ids(page)).not.toContain(customerIds[4]);
  });

  it('breaks ties of the requested order by id, so a cursor walk lists what page numbers list', async () => {
    const product = await seller.api.post('/api/Product', { name: 'Ties' });
    for (const amount of [100, 100, 50, 100, 200]) {
      expect((await seller.api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount, currency: 'USD' })).status).toBe(201);
    }
    const path = `/api/Price?productId=${product.body.id}&orderBy=amount&orderDirection=asc`;
    const expected = await everything(seller.api, path);
    const walked: string[] = [];
    let page = await seller.api.get(`${path}&pageSize=2`);
    walked.push(...ids(page));
    while (page.body.hasMore) {
      page = await seller.api.get(`${path}&pageSize=2&startingAfter=${walked.at(-1)}`);
      walked.push(...ids(page));
    }
    expect(walked).toEqual(expected);
  });

  it('pages a nested list by its items’ own keys', async () => {
    const customerId = customerIds[1]!;
    for (const key of ['alpha', 'beta', 'gamma']) {
      expect((await seller.api.post(`/api/Customer/${customerId}/CustomValue`, { key, value: key.toUpperCase() })).status).toBe(201);
    }
    const page = await seller.api.get(`/api/Customer/${customerId}/CustomValue?orderBy=key&orderDirection=asc&startingAfter=alpha`);
    expect(page.body.data.map((value: { key: string }) => value.key)).toEqual(['beta', 'gamma']);
    // Another customer's list does not hold that key.
    const other = await seller.api.get(`/api/Customer/${customerIds[2]}/CustomValue?startingAfter=alpha`);
    expect(other.status).toBe(400);
    expect(other.body.errors[0].path).toBe('startingAfter');
  });
});

describe('cursor paging refuses', () => {
  it('a page number with a cursor, and both cursors', async () => {
    const both = await seller.api.get(`/api/Customer?page=2&startingAfter=${customerIds[0]}`);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'page' }] });
    const cursors = await seller.api.get(`/api/Customer?startingAfter=${customerIds[0]}&endingBefore=${customerIds[3]}`);
    expect(cursors.status).toBe(400);
    expect(cursors.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'endingBefore' }] });
    expect((await seller.api.get('/api/Customer?startingAfter=')).status).toBe(400);
  });

  it("an unknown id, another seller's id and another resource's id (400 naming the parameter, never a 404)", async () => {
    const other = await newMerchant();
    const theirs = await other.api.post('/api/Customer', { email: 'theirs@example.com' });
    for (const cursor of ['cus_unknown', theirs.body.id, seller.keyId]) {
      for (const parameter of ['startingAfter', 'endingBefore']) {
        const answer = await seller.api.get(`/api/Customer?${parameter}=${cursor}`);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: parameter }] });
      }
    }
    // The other seller pages its own list with it.
    expect(ids(await other.api.get(`/api/Customer?endingBefore=${theirs.body.id}`))).toEqual([]);
  });

  it('an order some items have no value for (a customer without a name)', async () => {
    const answer = await seller.api.get(`/api/Customer?orderBy=name&startingAfter=${customerIds[0]}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].path).toBe('startingAfter');
  });

  it('nothing on an empty list but an unknown cursor', async () => {
    const empty = await newMerchant();
    expect((await empty.api.get('/api/WebhookEndpoint')).body).toEqual({ data: [], page: 1, pageSize: 20, totalCount: 0, hasMore: false });
    const answer = await empty.api.get('/api/WebhookEndpoint?startingAfter=we_unknown');
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].path).toBe('startingAfter');
  });
});
