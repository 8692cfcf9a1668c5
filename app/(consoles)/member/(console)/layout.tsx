import type { ReactNode } from 'react';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findMemberById } from '@/lib/members/members';
import { requireSession } from '@/lib/web/session';
import { ConsoleShell } from '@/components/console/console-shell';
import { signOutAction } from '../actions';

export default async function MemberConsoleLayout({ children }: { children: ReactNode }) {
  const principal = await requireSession('member');
  const member = await findMemberById(getDb(), principal.subjectId);
  if (!member) redirect('/member/sign-in');
  return (
    <ConsoleShell consoleName="Wallet" home="/member" nav={[{ href: '/member', label: 'Wallet' }]} who={member.email} signOut={signOutAction}>
      {children}
    </ConsoleShell>
  );
}
