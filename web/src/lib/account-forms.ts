// The account forms' rules (spec/accounts-and-pages.md §5) as zod schemas, for react-hook-form.
// Messages are translation keys; the form shows them in the reader's language. Ferry enforces
// the sign-up hint (uppercase, lowercase, digit) for every new password, as the server does.
// Loaded with the account pages only, never with the landing page.
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import * as z from 'zod/mini';

export type RuleKey =
  | 'account.validation.emailRequired'
  | 'account.validation.signInPasswordMin'
  | 'account.validation.codeLength'
  | 'account.validation.fullNameRequired'
  | 'account.validation.emailInvalid'
  | 'account.validation.emailInvalidAddress'
  | 'account.validation.passwordMin'
  | 'account.validation.passwordMix'
  | 'account.validation.passwordsMismatch'
  | 'account.validation.termsRequired';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const rule = <T>(test: (value: T) => boolean, key: RuleKey) => z.refine<T>(test, { error: key });
const filled = (key: RuleKey) => z.string().check(rule((v: string) => v.trim() !== '', key));
const email = (key: RuleKey) => z.string().check(rule((v: string) => EMAIL.test(v.trim()), key));
const newPassword = z.string().check(
  rule((v: string) => [...v].length >= 8, 'account.validation.passwordMin'),
  rule(
    (v: string) => [...v].length < 8 || (/\p{Lu}/u.test(v) && /\p{Ll}/u.test(v) && /[0-9]/.test(v)),
    'account.validation.passwordMix',
  ),
);
/** On the whole form, reported on the confirmation field. */
const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>(
  (v) => v.password === v.confirmPassword,
  { error: 'account.validation.passwordsMismatch', path: ['confirmPassword'] },
);

export const signInSchema = z.object({
  email: filled('account.validation.emailRequired'),
  password: z
    .string()
    .check(rule((v: string) => v.length >= 6, 'account.validation.signInPasswordMin')),
  remember: z.boolean(),
});

export const newPasswordSchema = z
  .object({ password: newPassword, confirmPassword: z.string() })
  .check(passwordsMatch);

export const signUpSchema = z
  .object({
    fullName: filled('account.validation.fullNameRequired'),
    email: email('account.validation.emailInvalid'),
    password: newPassword,
    confirmPassword: z.string(),
    terms: z.boolean().check(rule((v: boolean) => v, 'account.validation.termsRequired')),
  })
  .check(passwordsMatch);

export const forgotPasswordSchema = z.object({
  email: email('account.validation.emailInvalidAddress'),
});

/** The TOTP step: exactly six digits (the input takes digits only). */
export function validateCode(code: string): RuleKey | null {
  return /^\d{6}$/.test(code) ? null : 'account.validation.codeLength';
}

/** Runs `schema` for react-hook-form: each field's first problem, as a translation key. */
export function zodResolver<T extends FieldValues>(schema: z.ZodMiniType<T>): Resolver<T> {
  return async (values) => {
    const result = schema.safeParse(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const name = issue.path.join('.');
      errors[name] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors } as unknown as Awaited<ReturnType<Resolver<T>>>;
  };
}

/** A field's problem in the reader's language, or null. */
export function problemText(
  t: (key: RuleKey) => string,
  error: { message?: string | undefined } | undefined,
): string | null {
  return error?.message ? t(error.message as RuleKey) : null;
}
