import { config } from '@/lib/config';
import { settleSandboxAuthentication } from '@/lib/payments/processor/sandbox-authentication';

/**
 * "Complete authentication" / "Fail authentication" on the sandbox's 3-D Secure page: settles
 * the sandbox's charge (only while it waits) and sends the customer back to the return URL stored
 * with the charge, never to one from the request. The pages' `form-action 'self'` policy stops a
 * form's redirect to another site, so a return URL elsewhere is reached from the page itself.
 */
export async function POST(request: Request, { params }: { params: Promise<{ actionId: string }> }) {
  const { actionId } = await params;
  const form = await request.formData().catch(() => undefined);
  const result = form?.get('result');
  if (result !== 'complete' && result !== 'fail') return new Response('Choose complete or fail.', { status: 400 });
  const settled = await settleSandboxAuthentication(actionId, result);
  if (!settled) return new Response('Not found.', { status: 404 });
  const page = `${config.publicUrl}/sandbox/authenticate/${encodeURIComponent(actionId)}`;
  const back = settled.returnUrl && new URL(settled.returnUrl).origin === new URL(config.publicUrl).origin ? settled.returnUrl : `${page}?ended=1`;
  return new Response(null, { status: 303, headers: { Location: back } });
}
