'use client';

import { createContext, useContext } from 'react';
import type { FormState } from '@/lib/server/web/form-state';

export const FormStateContext = createContext<FormState & { pending?: boolean }>({});

export function useFormState(): FormState & { pending?: boolean } {
  return useContext(FormStateContext);
}
