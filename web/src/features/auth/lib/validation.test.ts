import { describe, expect, it } from 'vitest';

import { validateCode, validateNewPassword, validateSignIn, validateSignUp } from './validation';

describe('form rules (spec §5)', () => {
  it('sign-in needs the e-mail and six password characters', () => {
    expect(validateSignIn({ email: ' ', password: '12345' })).toEqual({
      email: 'account.validation.emailRequired',
      password: 'account.validation.signInPasswordMin',
    });
    expect(validateSignIn({ email: 'a@b.co', password: '123456' })).toEqual({});
  });

  it('the code step takes exactly six digits', () => {
    expect(validateCode('12345')).toBe('account.validation.codeLength');
    expect(validateCode('1234567')).toBe('account.validation.codeLength');
    expect(validateCode('123456')).toBeNull();
  });

  it('new passwords need 8 characters with upper, lower and a digit, confirmed', () => {
    expect(validateNewPassword('Abc1', 'Abc1').password).toBe('account.validation.passwordMin');
    expect(validateNewPassword('abcdefg1', 'abcdefg1').password).toBe(
      'account.validation.passwordMix',
    );
    expect(validateNewPassword('Abcdefg1', 'Abcdefg2')).toEqual({
      confirmPassword: 'account.validation.passwordsMismatch',
    });
    expect(validateNewPassword('Abcdefg1', 'Abcdefg1')).toEqual({});
  });

  it('sign-up checks every field and the terms', () => {
    expect(
      validateSignUp({
        fullName: '',
        email: 'nope',
        password: 'Abcdefg1',
        confirmPassword: 'Abcdefg1',
        terms: false,
      }),
    ).toEqual({
      fullName: 'account.validation.fullNameRequired',
      email: 'account.validation.emailInvalid',
      terms: 'account.validation.termsRequired',
    });
  });
});
