import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { Menu } from './menu';

function renderMenu(onSelect = vi.fn()) {
  render(
    <Menu
      label="Language"
      trigger="EN"
      items={[
        { key: 'en', label: 'English', current: true, onSelect: () => onSelect('en') },
        { key: 'de', label: 'Deutsch', onSelect: () => onSelect('de') },
        { key: 'fr', label: 'Français', onSelect: () => onSelect('fr') },
      ]}
    />,
  );
  return onSelect;
}

describe('the header menu', () => {
  it('opens on click with the current item focused, and Escape closes it', async () => {
    const user = userEvent.setup();
    renderMenu();
    const button = screen.getByRole('button', { name: 'Language' });
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: /English/ })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('moves with the arrow keys, wraps around and chooses with Enter', async () => {
    const user = userEvent.setup();
    const onSelect = renderMenu();
    await user.click(screen.getByRole('button', { name: 'Language' }));
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Français' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{Enter}');
    expect(onSelect).toHaveBeenCalledWith('de');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('closes on a click outside', async () => {
    const user = userEvent.setup();
    renderMenu();
    await user.click(screen.getByRole('button', { name: 'Language' }));
    await user.click(document.body);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
