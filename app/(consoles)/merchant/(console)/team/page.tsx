import type { Metadata } from 'next';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import { getDb } from '@/lib/db/client';
import { listTeam } from '@/lib/team/team';
import { ROLE_DESCRIPTIONS, ROLE_LABELS, SELLER_ROLES, roleCan } from '@/lib/merchants/roles';
import { formatMoney } from '@/lib/money/format';
import { minorToDecimalText } from '@/lib/money/parse';
import { ActionForm } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SelectField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Badge, Card, PageHeader } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { currentSeller } from '../../session';
import { changeRoleAction, inviteMemberAction, removeMemberAction, revokeInvitationAction, supportRefundLimitAction } from './actions';

export const metadata: Metadata = { title: 'Team' };

export default async function TeamPage() {
  const { merchant, user } = await currentSeller('team:read');
  const team = await listTeam(getDb(), merchant.id);
  const canManage = roleCan(user.role, 'team:manage');
  // Only Owners give or touch the Owner role.
  const grantable = SELLER_ROLES.filter((role) => role !== 'Owner' || user.role === 'Owner').map((role) => ({ value: role, label: ROLE_LABELS[role] }));
  const mayTouch = (role: string) => canManage && (role !== 'Owner' || user.role === 'Owner');
  const limit =
    merchant.supportRefundLimit != null && merchant.supportRefundLimitCurrency
      ? formatMoney(merchant.supportRefundLimit, merchant.supportRefundLimitCurrency)
      : undefined;
  return (
    <>
      <PageHeader title="Team" description="The people who sign in to this seller account, and what each role may do." />
      <div className="grid grid-cols-1 gap-6 2xl:grid-cols-[minmax(0,1fr)_420px]">
        <div className="space-y-6">
          <Table caption="Team members" head={['Name', 'Email', 'Role', 'Since', '']}>
            {team.members.map((member) => (
              <tr key={member.id} data-testid={`member-row-${member.email}`}>
                <Cell className="font-medium">
                  {member.name}
                  {member.id === user.id ? <span className="ml-1 text-slate-500">(you)</span> : null}
                </Cell>
                <Cell className="break-all">
                  {member.email} {member.emailVerified ? null : <Badge tone="red">unverified</Badge>}
                </Cell>
                <Cell>
                  {mayTouch(member.role) ? (
                    <ActionForm action={changeRoleAction} className="flex items-end gap-2" ariaLabel={`Role of ${member.email}`}>
                      <input type="hidden" name="userId" value={member.id} />
                      <SelectField label={<span className="sr-only">Role</span>} name="role" defaultValue={member.role} options={grantable} />
                      <SubmitButton variant="secondary" size="sm" pendingText="Saving…">
                        Change
                      </SubmitButton>
                    </ActionForm>
                  ) : (
                    <Badge tone={member.role === 'Owner' ? 'blue' : 'gray'}>{ROLE_LABELS[member.role]}</Badge>
                  )}
                </Cell>
                <Cell className="whitespace-nowrap">{formatConsoleDate(member.createdAt, merchant.timeZone)}</Cell>
                <Cell className="text-right">
                  {mayTouch(member.role) ? (
                    <ActionForm action={removeMemberAction}>
                      <input type="hidden" name="userId" value={member.id} />
                      <ConfirmButton question="Remove? Their sign-ins end at once." confirmLabel="Remove member">
                        Remove
                      </ConfirmButton>
                    </ActionForm>
                  ) : null}
                </Cell>
              </tr>
            ))}
          </Table>
          {team.invitations.length > 0 ? (
            <Table caption="Open invitations" head={['Invited', 'Role', 'Expires', '']}>
              {team.invitations.map((invitation) => (
                <tr key={invitation.id} data-testid={`invitation-row-${invitation.email}`}>
                  <Cell className="break-all">{invitation.email}</Cell>
                  <Cell>{ROLE_LABELS[invitation.role]}</Cell>
                  <Cell className="whitespace-nowrap">{formatConsoleDate(invitation.expiresAt, merchant.timeZone)}</Cell>
                  <Cell className="text-right">
                    {mayTouch(invitation.role) ? (
                      <ActionForm action={revokeInvitationAction}>
                        <input type="hidden" name="invitationId" value={invitation.id} />
                        <ConfirmButton question="Revoke? The link stops working." confirmLabel="Revoke invitation">
                          Revoke
                        </ConfirmButton>
                      </ActionForm>
                    ) : null}
                  </Cell>
                </tr>
              ))}
            </Table>
          ) : null}
          <Card title="Roles">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
              {SELLER_ROLES.map((role) => (
                <div key={role} className="contents">
                  <dt className="font-medium text-slate-800">{ROLE_LABELS[role]}</dt>
                  <dd className="text-slate-700">{ROLE_DESCRIPTIONS[role]}</dd>
                </div>
              ))}
            </dl>
          </Card>
        </div>
        <div className="space-y-6">
          {canManage ? (
            <Card title="Invite a team member" className="h-fit">
              {user.emailVerifiedAt ? (
                <ActionForm action={inviteMemberAction} className="space-y-4" ariaLabel="Invite a team member">
                  <TextField label="Email" name="email" type="email" required />
                  <SelectField label="Role" name="role" defaultValue="Developer" options={grantable} />
                  <SubmitButton pendingText="Sending…">Send invitation</SubmitButton>
                </ActionForm>
              ) : (
                <p className="text-sm text-slate-700">Confirm your email address first (see the banner above): invitations go out in your name.</p>
              )}
            </Card>
          ) : null}
          <Card title="Support refund limit" className="h-fit">
            <p className="mb-3 text-sm text-slate-700">
              {limit ? (
                <>
                  Support members can refund up to <strong data-testid="support-refund-limit">{limit}</strong> at once, in {merchant.supportRefundLimitCurrency}{' '}
                  only.
                </>
              ) : (
                'Support members cannot refund until you set a limit.'
              )}
            </p>
            {roleCan(user.role, 'settings:write') ? (
              <ActionForm action={supportRefundLimitAction} className="space-y-4" ariaLabel="Support refund limit">
                <div className="grid grid-cols-2 gap-3">
                  <TextField
                    label="Amount"
                    name="amount"
                    inputMode="decimal"
                    defaultValue={
                      merchant.supportRefundLimit != null && merchant.supportRefundLimitCurrency
                        ? minorToDecimalText(merchant.supportRefundLimit, merchant.supportRefundLimitCurrency)
                        : ''
                    }
                    hint="Empty: Support cannot refund."
                  />
                  <TextField label="Currency" name="currency" defaultValue={merchant.supportRefundLimitCurrency ?? 'USD'} maxLength={3} />
                </div>
                <SubmitButton variant="secondary" pendingText="Saving…">
                  Save limit
                </SubmitButton>
              </ActionForm>
            ) : null}
          </Card>
        </div>
      </div>
    </>
  );
}
