import { redirect } from 'next/navigation';

export default function DevelopersPage() {
  redirect('/merchant/developers/api-keys');
}
