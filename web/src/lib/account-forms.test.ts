import { describe, expect, it } from 'vitest';

import {
  forgotPasswordSchema,
  newPasswordSchema,
  signInSchema,
  signUpSchema,
  validateCode,
  zodResolver,
} from './account-forms';

/** The first message per field, as the forms show them. */
async function problems(schema: Parameters<typeof zodResolver>[0], values: object) {
  const resolve = zodResolver(schema);
  const { errors } = await resolve(values as never, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  return Object.fromEntries(
    Object.entries(errors).map(([name, error]) => [name, (error as { message: string }).message]),
  );
}

describe('account form rules (spec §5)', () => {
  it('sign-in needs the e-mail and six password characters', async () => {
    expect(
      await problems(signInSchema, { email: ' ', password: '12345', remember: false }),
    ).toEqual({
      email: 'account.validation.emailRequired',
      password: 'account.validation.signInPasswordMin',
    });
    expect(
      await problems(signInSchema, { email: 'a@b.co', password: '123456', remember: true }),
    ).toEqual({});
  });

  it('the code step takes exactly six digits', () => {
    expect(validateCode('12345')).toBe('account.validation.codeLength');
    expect(validateCode('1234567')).toBe('account.validation.codeLength');
    expect(validateCode('123456')).toBeNull();
  });

  it('new passwords need 8 characters with upper, lower and a digit, confirmed', async () => {
    const check = (password: string, confirmPassword: string) =>
      problems(newPasswordSchema, { password, confirmPassword });
    expect(await check('Abc1', 'Abc1')).toEqual({ password: 'account.validation.passwordMin' });
    expect(await check('abcdefg1', 'abcdefg1')).toEqual({
      password: 'account.validation.passwordMix',
    });
    expect(await check('Abcdefg1', 'Abcdefg2')).toEqual({
      confirmPassword: 'account.validation.passwordsMismatch',
    });
    expect(await check('Abcdefg1', 'Abcdefg1')).toEqual({});
  });

  it('sign-up reports every field at once, the mismatch included', async () => {
    expect(
      await problems(signUpSchema, {
        fullName: '',
        email: 'nope',
        password: 'abcdefgh',
        confirmPassword: 'abcdefgi',
        terms: false,
      }),
    ).toEqual({
      fullName: 'account.validation.fullNameRequired',
      email: 'account.validation.emailInvalid',
      password: 'account.validation.passwordMix',
      confirmPassword: 'account.validation.passwordsMismatch',
      terms: 'account.validation.termsRequired',
    });
  });

  it('forgot-password asks for a valid address', async () => {
    expect(await problems(forgotPasswordSchema, { email: 'x@' })).toEqual({
      email: 'account.validation.emailInvalidAddress',
    });
  });
});
