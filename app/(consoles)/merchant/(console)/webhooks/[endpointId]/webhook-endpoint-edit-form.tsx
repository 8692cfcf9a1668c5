'use client';

import { ActionForm } from '@/components/ui/action-form';
import { TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { EventPicker } from '@/components/console/webhooks/new-endpoint-form';
import { updateWebhookEndpointAction } from '@/app/(consoles)/merchant/edit-actions';

/** URL, events and description of an endpoint (PUT /api/WebhookEndpoint/{id}); the URL is checked as at registration. */
export function WebhookEndpointEditForm({
  endpoint,
  eventTypes,
}: {
  endpoint: { id: string; url: string; description: string | null; events: string[] };
  eventTypes: readonly string[];
}) {
  return (
    <ActionForm action={updateWebhookEndpointAction} className="space-y-4" ariaLabel="Edit webhook endpoint">
      <input type="hidden" name="endpointId" value={endpoint.id} />
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        required
        maxLength={2048}
        defaultValue={endpoint.url}
        hint="A public https address of your backend. Redirects are not followed."
      />
      <TextField label="Description" name="description" maxLength={500} defaultValue={endpoint.description ?? ''} hint="Optional, for you." />
      <EventPicker eventTypes={eventTypes} selected={endpoint.events} />
      <SubmitButton pendingText="Saving…">Save endpoint</SubmitButton>
    </ActionForm>
  );
}
