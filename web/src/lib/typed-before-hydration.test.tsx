// A field typed into on the server's HTML, before React hydrates it, keeps what was typed once a
// later render comes: React alone puts the prerendered value back (the defect this module fixes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { act, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { keepTypedThroughHydration } from './typed-before-hydration';

/** A form like the widget's: controlled fields, and a render that comes later (a quote). */
function Form({ rerender }: { rerender: (fn: () => void) => void }) {
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('0.01');
  const [rate, setRate] = useState('float');
  const [agreed, setAgreed] = useState(false);
  const [network, setNetwork] = useState('eth');
  const [, setTick] = useState(0);
  rerender(() => setTick((tick) => tick + 1));
  return (
    <form>
      <input aria-label="address" value={address} onChange={(e) => setAddress(e.target.value)} />
      <input aria-label="amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
      {['float', 'fixed'].map((type) => (
        <input
          key={type}
          type="radio"
          name="rate"
          aria-label={type}
          checked={rate === type}
          onChange={() => setRate(type)}
        />
      ))}
      <input
        type="checkbox"
        aria-label="agreed"
        checked={agreed}
        onChange={(e) => setAgreed(e.target.checked)}
      />
      <select aria-label="network" value={network} onChange={(e) => setNetwork(e.target.value)}>
        <option value="eth">ETH</option>
        <option value="arb">ARB</option>
      </select>
      <output>{`${address}|${amount}|${rate}|${agreed}|${network}`}</output>
    </form>
  );
}

// Hydrated here by hand, not through Testing Library: tell React that act() is in use.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  vi.useRealTimers();
  window.ferryClicksBeforeApp = undefined;
});

/** The server's HTML in the page, typed into, then hydrated (with or without the module). */
async function typeThenHydrate(keep: boolean) {
  let rerender = () => {};
  const form = <Form rerender={(fn) => (rerender = fn)} />;
  container = document.createElement('div');
  container.innerHTML = renderToString(<Form rerender={() => {}} />);
  document.body.append(container);
  const field = (label: string) =>
    container!.querySelector<HTMLInputElement & HTMLSelectElement>(`[aria-label="${label}"]`)!;
  // The visitor, before any script ran.
  field('address').value = '0x52908400098527886E0F7030069857D2E4169EE7';
  field('amount').value = '0.5';
  field('fixed').checked = true;
  field('agreed').checked = true;
  field('network').value = 'arb';

  vi.useFakeTimers();
  if (keep) keepTypedThroughHydration(container);
  await act(async () => {
    root = hydrateRoot(container!, form);
  });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(100);
  });
  // Something else renders the form afterwards.
  await act(async () => rerender());
  return { field, shown: container.querySelector('output')!.textContent };
}

describe('typing before the app takes over', () => {
  it('is kept in the fields and in the state once React has the page', async () => {
    const { field, shown } = await typeThenHydrate(true);
    expect(shown).toBe('0x52908400098527886E0F7030069857D2E4169EE7|0.5|fixed|true|arb');
    expect(field('address').value).toBe('0x52908400098527886E0F7030069857D2E4169EE7');
    expect(field('amount').value).toBe('0.5');
    expect(field('fixed').checked).toBe(true);
    expect(field('float').checked).toBe(false);
    expect(field('agreed').checked).toBe(true);
    expect(field('network').value).toBe('arb');
  });

  it('is lost by React alone on the next render (what the module is for)', async () => {
    const { field, shown } = await typeThenHydrate(false);
    expect(shown).toBe('|0.01|float|false|eth');
    expect(field('address').value).toBe('');
  });
});

/** A header menu's button: it opens and closes what it controls. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <button type="button" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
      Theme
    </button>
  );
}

/**
 * The server's button in a prerendered page, with the pre-paint script run, clicked before any
 * app code (or, `when` it is 'module', after this module but still before React), then hydrated
 * `later` milliseconds after the click.
 */
async function clickThenHydrate({
  keep = true,
  when = 'script',
  later = 0,
}: { keep?: boolean; when?: 'script' | 'module'; later?: number } = {}) {
  container = document.createElement('div');
  container.id = 'root';
  container.dataset.prerendered = 'en';
  container.innerHTML = renderToString(<Opener />);
  document.body.append(container);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  new Function(readFileSync(join(__dirname, '..', 'theme', 'theme-init.js'), 'utf8'))();
  const button = container.querySelector('button')!;
  if (when === 'module') keepTypedThroughHydration(container);
  button.click();
  await vi.advanceTimersByTimeAsync(1);
  if (when === 'script') {
    expect(window.ferryClicksBeforeApp?.has(button)).toBe(true);
    if (keep) keepTypedThroughHydration(container);
  }
  await vi.advanceTimersByTimeAsync(later);
  await act(async () => {
    root = hydrateRoot(container!, <Opener />);
  });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(100);
  });
  return button;
}

describe('a click before the app takes over', () => {
  it('on a button that opens something is made again, once, when React owns it', async () => {
    const button = await clickThenHydrate();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    // Owned now: a click is React's alone, neither noted nor made twice.
    await act(async () => {
      button.click();
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('is noted by the module too, once it runs, while React does not own the button', async () => {
    const button = await clickThenHydrate({ when: 'module' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('is not made again once the visitor has waited past five seconds', async () => {
    const button = await clickThenHydrate({ later: 6_000 });
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('is lost by React alone (what the module is for)', async () => {
    const button = await clickThenHydrate({ keep: false });
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
