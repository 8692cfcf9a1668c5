import { TextField } from '@/components/ui/field';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/schemas';

/** A password being chosen (sign-up, invitation, reset): the browser may suggest one, and the hint says the minimum. */
export function NewPasswordField({ label = 'Password' }: { label?: string }) {
  return (
    <TextField
      label={label}
      name="password"
      type="password"
      autoComplete="new-password"
      minLength={PASSWORD_MIN_LENGTH}
      hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      required
    />
  );
}
