import { phasedApiRoute } from '@/lib/server/http/api-route';
import { submitDisputeEvidenceOperation } from '@/lib/payments/api';
import { submitDisputeEvidence } from '@/lib/payments/dispute-evidence';

export const POST = phasedApiRoute(submitDisputeEvidenceOperation, ({ phases, merchantId, params, body, attempt }) =>
  submitDisputeEvidence(phases, merchantId, params.disputeId, body, attempt?.key),
);
