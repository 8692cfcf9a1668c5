import type { ReactNode } from 'react';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findMemberById } from '@/lib/members/members';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { requireSession } from '@/lib/server/web/session';
import { ConsoleShell } from '@/components/console/console-shell';
import { signOutAction } from '../actions';

export default async function MemberConsoleLayout({ children }: { children: ReactNode }) {
  const principal = await requireSession('member');
  const member = await findMemberById(getDb(), principal.subjectId);
  if (!member) redirect('/member/sign-in');
  const { t, locale } = customerText(await pageLocale());
  return (
    <ConsoleShell
      consoleName={t('wallet.name')}
      home="/member"
      nav={[{ href: '/member', label: t('wallet.name') }]}
      who={member.email}
      signOut={signOutAction}
      lang={locale}
      words={{ skip: t('wallet.skip'), signOut: t('wallet.signOut'), signingOut: t('wallet.signingOut'), sections: t('wallet.sections') }}
    >
      {children}
    </ConsoleShell>
  );
}
