// A small disclosure menu: a button that opens a list of actions. Light enough for the header,
// which every page loads (Radix's menu and its positioning engine weigh ~25 KB gzip).
// Keyboard: Enter/Space/ArrowDown open, arrows move, Home/End jump, Escape closes and returns
// focus to the button; a click outside closes it.
import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

import { cn } from '@/lib/utils';

import { buttonVariants } from './button';

export interface MenuItem {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  current?: boolean;
  lang?: string;
}

interface MenuProps {
  label: string;
  trigger: ReactNode;
  items: MenuItem[];
  heading?: ReactNode;
  align?: 'start' | 'end';
  variant?: 'ghost' | 'outline';
  panelClassName?: string;
}

export function Menu({
  label,
  trigger,
  items,
  heading,
  align = 'end',
  variant = 'ghost',
  panelClassName,
}: MenuProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const focusItem = useCallback((index: number) => {
    const nodes = rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]');
    if (!nodes || nodes.length === 0) return;
    const wrapped = (index + nodes.length) % nodes.length;
    nodes[wrapped]?.focus();
  }, []);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    const current = items.findIndex((item) => item.current);
    focusItem(current >= 0 ? current : 0);
    return () => document.removeEventListener('pointerdown', onPointerDown);
    // Focus the first item only when the menu opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const nodes = Array.from(
      rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [],
    );
    const index = nodes.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: nodes.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      focusItem(moves[event.key] ?? 0);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        className={buttonVariants({ variant, size: 'sm' })}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {trigger}
      </button>
      {open ? (
        <div
          id={panelId}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          onKeyDown={onPanelKeyDown}
          className={cn(
            'absolute z-50 mt-1.5 min-w-44 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 text-slate-900 shadow-lg',
            align === 'end' ? 'right-0' : 'left-0',
            panelClassName,
          )}
        >
          {heading ? (
            <div className="px-2 py-1.5 text-xs font-medium text-slate-500">{heading}</div>
          ) : null}
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              lang={item.lang}
              aria-current={item.current ? 'true' : undefined}
              className={cn(
                'flex min-h-11 w-full items-center justify-between gap-3 rounded-md px-2 py-1.5 text-left text-sm outline-none hover:bg-slate-100 focus:bg-slate-100 md:min-h-9',
                item.current && 'font-semibold',
              )}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              {item.label}
              {item.current ? <span aria-hidden="true">✓</span> : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
