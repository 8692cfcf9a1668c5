import { getDb } from '@/lib/db/client';
import { publicRoute } from '@/lib/server/http/public-route';
import { acceptStripeWebhook, stripeWebhookResponse } from '@/lib/processors/stripe-webhook';

/**
 * Stripe's events for one seller's connected account (docs/processors.md, "Connecting a seller's
 * Stripe account"), signed with the secret of the endpoint Paybase registered for it: a body
 * signed for another connection does not verify here.
 */
export function POST(request: Request, { params }: { params: Promise<{ connectionId: string }> }) {
  return publicRoute(async () => {
    const { connectionId } = await params;
    return stripeWebhookResponse(await acceptStripeWebhook(getDb(), connectionId, await request.text(), request.headers.get('stripe-signature')));
  })(request);
}
