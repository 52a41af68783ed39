import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { TaggedText } from './tagged-text';

describe('TaggedText', () => {
  it('wraps marked parts and keeps the rest as text', () => {
    render(
      <p>
        <TaggedText
          text="Read the <terms>Terms</terms> and the <privacy>Privacy Policy</privacy>."
          tags={{
            terms: (c) => <a href="/terms">{c}</a>,
            privacy: (c) => <a href="/privacy">{c}</a>,
          }}
        />
      </p>,
    );
    expect(screen.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    expect(screen.getByText(/Read the/)).toHaveTextContent(
      'Read the Terms and the Privacy Policy.',
    );
  });

  it('never turns text into markup', () => {
    const { container } = render(
      <TaggedText text={'<b>bold</b> <img src=x onerror=alert(1)>'} tags={{}} />,
    );
    expect(container.querySelector('b, img')).toBeNull();
    expect(container.textContent).toBe('bold <img src=x onerror=alert(1)>');
  });
});
