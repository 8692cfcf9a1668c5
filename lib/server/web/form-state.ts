import { headers } from 'next/headers';
import { unstable_rethrow } from 'next/navigation';
import { clientInfo, requestIdOf } from '../../http/client-ip';
import { runInRequestContext } from '../../audit/request-context';
import { ApiError } from '../../errors';
import { log } from '../../log';

/** What a console form's server action answers: an error in words, per-field messages, or a result. */
export interface FormState<T = unknown> {
  error?: string;
  fieldErrors?: Record<string, string>;
  notice?: string;
  result?: T;
}

/** The generic answers of a form, in the page's language (the customer-facing pages translate them). */
export interface FormWords {
  correctFields: string;
  failed: string;
}

const ENGLISH: FormWords = { correctFields: 'Please correct the highlighted fields.', failed: 'Something went wrong on our side. Please try again.' };

/**
 * Runs a server action's work and turns expected failures (ApiError) into words for the form;
 * anything unexpected is logged and answered generically. Redirects pass through.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a piece of work may end without an answer (`return;`, a redirect), which only `void` accepts.
export async function formAction<T>(work: () => Promise<FormState<T> | void>, words: FormWords = ENGLISH): Promise<FormState<T>> {
  try {
    const headerList = await headers();
    const context = { requestId: requestIdOf(headerList), ip: clientInfo(headerList).ip };
    return (await runInRequestContext(context, work)) ?? {};
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof ApiError) {
      // Each message under its field's name and, for a nested one (`tiers.1.upTo`), its full path too.
      const fieldErrors: Record<string, string> = {};
      for (const e of error.options.errors ?? []) {
        fieldErrors[e.path.split('.')[0]!] = e.message;
        fieldErrors[e.path] ??= e.message;
      }
      const detail = error.code === 'VALIDATION_FAILED' ? words.correctFields : error.detail;
      return { error: detail, fieldErrors };
    }
    log.error({ err: error }, 'console action failed');
    return { error: words.failed };
  }
}

/** Reads a form field as a trimmed string ('' when absent). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** A destructive action runs only from its worded second step (`ConfirmButton` sends `confirmed=yes`). */
export function requireConfirmed(form: FormData, what: string): void {
  if (field(form, 'confirmed') !== 'yes') throw new ApiError('INVALID_STATE', `Nothing was changed: confirm first that you want to ${what}.`);
}
