import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { getDb } from '../../../db/client';
import { deliverEmail } from '../../../email/send-email';

const Payload = z.object({ emailId: z.string() });

/** Delivers one email queued with `sendEmail` (lib/email/send-email.ts). */
export const sendEmailTask: Task = async (payload) => {
  const { emailId } = Payload.parse(payload);
  await deliverEmail(getDb(), emailId);
};
