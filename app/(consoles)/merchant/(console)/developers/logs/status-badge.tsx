import { Badge } from '@/components/ui/layout';

export function HttpStatusBadge({ status }: { status: number }) {
  return <Badge tone={status >= 500 ? 'red' : status >= 400 ? 'red' : status >= 300 ? 'blue' : 'green'}>{status}</Badge>;
}
