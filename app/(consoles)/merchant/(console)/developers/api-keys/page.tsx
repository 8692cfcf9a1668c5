import type { Metadata } from 'next';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { getDb } from '@/lib/db/client';
import { listApiKeyPage } from '@/lib/auth/api-keys';
import { SCOPES } from '@/lib/http/scopes';
import { ActionForm } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { NewApiKeyForm } from '@/components/console/new-api-key-form';
import { currentSeller } from '../../../session';
import { ROLE_LABELS, roleCan, scopesAllowedFor } from '@/lib/merchants/roles';
import { createApiKeyAction, revokeApiKeyAction } from '../../../actions';

export const metadata: Metadata = { title: 'API keys' };

const SCOPE_NOTES: Partial<Record<string, string>> = {
  'payments:write': 'High risk: moves money.',
  'refunds:write': 'High risk: moves money.',
  'payments:read': 'Saved payment method references.',
};

export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('developers:read');
  const canManage = roleCan(user.role, 'developers:write');
  // A key can do only what its creator may: the form offers the role's scopes (the server checks them again).
  const grantable = scopesAllowedFor(user.role);
  const page = pageParam((await searchParams).page);
  const keys = await listApiKeyPage(getDb(), merchant.id, { page, pageSize: 20, orderBy: 'createdAt', orderDirection: 'desc' });
  return (
    <>
      <PageHeader
        title="API keys"
        description="Your backend calls the developer API with a key: Authorization: Bearer sk_…. A key answers in the API version it was created with unless a request sends Paybase-Version."
      />
      <div className="grid grid-cols-1 gap-6 2xl:grid-cols-[minmax(0,1fr)_420px]">
        <div>
          {keys.totalCount === 0 ? (
            <EmptyState title="No API keys yet">Create one with the scopes your backend needs.</EmptyState>
          ) : (
            <>
              <Table caption="API keys" head={['Name', 'Key', 'Scopes', 'API version', 'Last used', 'Status', '']}>
                {keys.data.map((key) => (
                  <tr key={key.id} data-testid={`api-key-row-${key.id}`}>
                    <Cell className="font-medium">{key.name}</Cell>
                    <Cell className="font-mono text-xs whitespace-nowrap">{key.prefix}…</Cell>
                    <Cell>
                      <span className="flex max-w-xs flex-wrap gap-1">
                        {key.scopes.map((scope) => (
                          <span key={scope} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-700">
                            {scope}
                          </span>
                        ))}
                      </span>
                    </Cell>
                    <Cell className="font-mono text-xs whitespace-nowrap">{key.apiVersion}</Cell>
                    <Cell className="whitespace-nowrap">{formatConsoleDateTime(key.lastUsedAt, merchant.timeZone)}</Cell>
                    <Cell>{key.revokedAt ? <Badge tone="red">Revoked</Badge> : <Badge tone="green">Active</Badge>}</Cell>
                    <Cell className="text-right">
                      {key.revokedAt || !canManage ? null : (
                        <ActionForm action={revokeApiKeyAction}>
                          <input type="hidden" name="apiKeyId" value={key.id} />
                          <ConfirmButton question="Revoke? Calls with it fail at once." confirmLabel="Revoke key">
                            Revoke
                          </ConfirmButton>
                        </ActionForm>
                      )}
                    </Cell>
                  </tr>
                ))}
              </Table>
              <Pagination {...keys} basePath="/merchant/developers/api-keys" />
            </>
          )}
        </div>
        {canManage ? (
          <Card title="New API key" className="h-fit max-w-xl">
            {grantable.length < SCOPES.length ? (
              <p className="mb-3 text-sm text-slate-600" data-testid="api-key-role-limit">
                As {ROLE_LABELS[user.role]}, you can give a key only the scopes your role allows, listed below. Your keys stay limited by your role if it
                changes, and stop if you leave the team. Ask an Owner or Admin for a key that needs more.
              </p>
            ) : null}
            <NewApiKeyForm action={createApiKeyAction} scopes={grantable.map((scope) => ({ value: scope, label: scope, description: SCOPE_NOTES[scope] }))} />
          </Card>
        ) : null}
      </div>
    </>
  );
}
