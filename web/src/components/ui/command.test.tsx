import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import {
  Command,
  CommandEmpty,
  CommandGroup,
  CommandInput,
  CommandItem,
  CommandList,
} from './command';

function Picker({ onSelect }: { onSelect: (value: string) => void }) {
  return (
    <Command label="Choose a coin">
      <CommandInput placeholder="Search…" />
      <CommandList>
        <CommandEmpty>No cryptocurrency found.</CommandEmpty>
        <CommandGroup heading="Popular">
          {['Bitcoin', 'Ethereum', 'Monero'].map((name) => (
            <CommandItem key={name} value={name} onSelect={onSelect}>
              {name}
            </CommandItem>
          ))}
        </CommandGroup>
      </CommandList>
    </Command>
  );
}

describe('the command search list', () => {
  it('filters as one types and shows the empty text when nothing matches', async () => {
    const user = userEvent.setup();
    render(<Picker onSelect={() => {}} />);
    await user.type(screen.getByPlaceholderText('Search…'), 'ether');
    expect(screen.getByRole('option', { name: 'Ethereum' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Bitcoin' })).not.toBeInTheDocument();
    await user.clear(screen.getByPlaceholderText('Search…'));
    await user.type(screen.getByPlaceholderText('Search…'), 'zzz');
    expect(screen.getByText('No cryptocurrency found.')).toBeInTheDocument();
  });

  it('is usable by keyboard: arrows move, Enter chooses', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<Picker onSelect={onSelect} />);
    await user.click(screen.getByPlaceholderText('Search…'));
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onSelect).toHaveBeenCalledWith('Monero');
  });
});
