// Turning on two-factor authentication: a mistyped code is said once, at the field, and the
// success that follows stands alone ("Something went wrong" no longer stays beside it).
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { dismissToast, Toaster } from '@/components/ui/toaster';
import { initI18n, loadTexts } from '@/lib/i18n';
import { fakeApi, json } from '@/test/fake-api';
import { renderRoutes } from '@/test/render';

import ProfilePage from './profile-page';

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages', 'account']);
});

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

const user = {
  id: 'u1',
  username: 'ada@example.com',
  email: 'ada@example.com',
  email_verified: true,
  two_factor_enabled: false,
  has_password: true,
  order_emails: true,
};

describe('two-factor authentication on the profile', () => {
  it('shows a wrong code at its field only, and nothing of it once 2FA is on', async () => {
    localStorage.setItem('signedIn', '1');
    let enabled = false;
    let attempts = 0;
    fakeApi({
      'GET /api/user': () => json(200, { user: { ...user, two_factor_enabled: enabled } }),
      'GET /api/account/sessions': () =>
        json(200, { sessions: [], recovery_codes_left: enabled ? 10 : 0 }),
      'POST /api/account/2fa/setup': () =>
        json(200, { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x' }),
      'POST /api/account/2fa/enable': () => {
        attempts += 1;
        if (attempts === 1) return json(400, { code: 400, error: 'The code is not valid' });
        enabled = true;
        return json(200, { message: 'on', recovery_codes: ['aaaa-bbbb', 'cccc-dddd'] });
      },
    });
    await renderRoutes(
      [
        {
          path: '/profile',
          element: (
            <>
              <ProfilePage />
              <Toaster />
            </>
          ),
        },
      ],
      '/profile',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    const code = await screen.findByLabelText('Then enter the 6-digit code it shows:');
    fireEvent.change(code, { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The code is not valid')).toBeInTheDocument();
    expect(screen.getAllByText('The code is not valid')).toHaveLength(1);
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();

    fireEvent.change(code, { target: { value: '222222' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('list', { name: 'Your recovery codes' })).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
    expect(screen.queryByText('The code is not valid')).not.toBeInTheDocument();
  });
});
