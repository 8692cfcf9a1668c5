import type { ReactNode } from 'react';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findAdminById } from '@/lib/admins/admins';
import { requireSession } from '@/lib/server/web/session';
import { ConsoleShell } from '@/components/console/console-shell';
import { signOutAction } from '../actions';

export default async function AdminConsoleLayout({ children }: { children: ReactNode }) {
  const principal = await requireSession('admin');
  const admin = await findAdminById(getDb(), principal.subjectId);
  if (!admin) redirect('/admin/sign-in');
  return (
    <ConsoleShell
      consoleName="Platform admin"
      home="/admin"
      nav={[
        { href: '/admin/overview', label: 'Overview' },
        { href: '/admin', label: 'Sellers' },
        { href: '/admin/payments', label: 'Payments to review' },
        { href: '/admin/audit-log', label: 'Audit log' },
      ]}
      who={admin.name}
      signOut={signOutAction}
    >
      {children}
    </ConsoleShell>
  );
}
