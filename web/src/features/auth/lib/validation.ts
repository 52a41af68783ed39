// The form rules of spec/accounts-and-pages.md §5, as translation keys. Ferry enforces the
// sign-up hint (uppercase, lowercase, number) for every new password, as the server does.
type Key =
  | 'account.validation.emailRequired'
  | 'account.validation.signInPasswordMin'
  | 'account.validation.codeLength'
  | 'account.validation.fullNameRequired'
  | 'account.validation.emailInvalid'
  | 'account.validation.emailInvalidAddress'
  | 'account.validation.passwordMin'
  | 'account.validation.passwordMix'
  | 'account.validation.passwordsMismatch'
  | 'account.validation.termsRequired'
  | 'account.validation.passwordRequired';

export type Errors<F extends string> = Partial<Record<F, Key>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** The TOTP code step: exactly six characters (digits, since the input only takes digits). */
export function validateCode(code: string): Key | null {
  return /^\d{6}$/.test(code) ? null : 'account.validation.codeLength';
}

export function validateSignIn(values: { email: string; password: string }) {
  const errors: Errors<'email' | 'password'> = {};
  if (!values.email.trim()) errors.email = 'account.validation.emailRequired';
  if (values.password.length < 6) errors.password = 'account.validation.signInPasswordMin';
  return errors;
}

/** A new password and its confirmation (sign-up, reset, change). */
export function validateNewPassword(password: string, confirmation: string) {
  const errors: Errors<'password' | 'confirmPassword'> = {};
  if ([...password].length < 8) errors.password = 'account.validation.passwordMin';
  else if (!/\p{Lu}/u.test(password) || !/\p{Ll}/u.test(password) || !/[0-9]/.test(password))
    errors.password = 'account.validation.passwordMix';
  if (password !== confirmation) errors.confirmPassword = 'account.validation.passwordsMismatch';
  return errors;
}

export function validateSignUp(values: {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  terms: boolean;
}) {
  const errors: Errors<'fullName' | 'email' | 'password' | 'confirmPassword' | 'terms'> = {
    ...validateNewPassword(values.password, values.confirmPassword),
  };
  if (!values.fullName.trim()) errors.fullName = 'account.validation.fullNameRequired';
  if (!isEmail(values.email)) errors.email = 'account.validation.emailInvalid';
  if (!values.terms) errors.terms = 'account.validation.termsRequired';
  return errors;
}

export function hasErrors(errors: object): boolean {
  return Object.keys(errors).length > 0;
}
