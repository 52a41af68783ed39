import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { Tabs } from './tabs';

function Example() {
  const [tab, setTab] = useState<'a' | 'b' | 'c'>('a');
  return (
    <Tabs
      label="Guides"
      items={[
        { value: 'a', label: 'Popular' },
        { value: 'b', label: 'Videos' },
        { value: 'c', label: 'FAQ' },
      ]}
      value={tab}
      onValueChange={setTab}
    >
      <p>Panel {tab}</p>
    </Tabs>
  );
}

describe('tabs', () => {
  it('select with a click or the arrow keys; only the selected tab is tabbable', () => {
    render(<Example />);
    const popular = screen.getByRole('tab', { name: 'Popular' });
    expect(popular).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Videos' })).toHaveAttribute('tabindex', '-1');
    fireEvent.keyDown(popular, { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'FAQ' })).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'FAQ' })).toHaveTextContent('Panel c');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'FAQ' }), { key: 'Home' });
    expect(screen.getByRole('tabpanel', { name: 'Popular' })).toHaveTextContent('Panel a');
    fireEvent.click(screen.getByRole('tab', { name: 'Videos' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel b');
  });
});
