'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { advanceTestClock, attachCustomerToTestClock, createTestClock } from '@/lib/subscriptions/test-clocks';
import { AdvanceTestClockBody, AttachTestClockCustomerBody, CreateTestClockBody } from '@/lib/subscriptions/schemas';
import { runConsoleOnce } from '@/lib/server/web/console-once';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { utcMoment } from '@/lib/server/web/form-inputs';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { sellerAccountId } from '../../session';

// The Test clocks page's forms: the API's TestClock schemas and domain functions.
const PATH = '/merchant/test-clocks';

export async function createTestClockAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const body = parseForm(CreateTestClockBody, { name: field(form, 'name') || undefined, frozenTime: utcMoment(form, 'frozenTime') });
    const clock = await getDb().transaction((tx) => createTestClock(tx, merchantId, body));
    revalidatePath(PATH);
    return { notice: `Test clock ${clock.name ?? clock.id} created.` };
  });
}

export async function attachTestClockCustomerAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const testClockId = field(form, 'testClockId');
    const { customerId } = parseForm(AttachTestClockCustomerBody, { customerId: field(form, 'customerId') });
    await getDb().transaction((tx) => attachCustomerToTestClock(tx, merchantId, testClockId, customerId));
    revalidatePath(PATH);
    return { notice: `Customer ${customerId} now lives on this clock’s time.` };
  });
}

/** Advancing runs the renewals (and charges) that fall due, so it runs once per form key. */
export async function advanceTestClockAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('subscriptions:write');
    const testClockId = field(form, 'testClockId');
    const body = parseForm(AdvanceTestClockBody, { frozenTime: utcMoment(form, 'frozenTime') });
    const { result } = await runConsoleOnce(
      getDb(),
      { merchantId, key: field(form, 'formKey'), action: `/api/TestClock/${testClockId}/Advance`, body },
      (phases) => advanceTestClock(phases, merchantId, testClockId, body),
    );
    revalidatePath(PATH);
    return {
      notice: `Advanced to ${formatConsoleDateTime(result.frozenTime, 'UTC')}; ${result.actionsRun} due action${result.actionsRun === 1 ? '' : 's'} ran.`,
    };
  });
}
