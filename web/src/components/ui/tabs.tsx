// Tabs with one panel (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs and
// select them; only the selected tab is in the Tab order.
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

import { cn } from '@/lib/utils';

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
}

interface TabsProps<T extends string> {
  label: string;
  items: readonly TabItem<T>[];
  value: T;
  onValueChange: (value: T) => void;
  /** `underline`: a row of buttons over a rule; `pill`: rounded chips. */
  variant?: 'underline' | 'pill';
  listClassName?: string;
  panelClassName?: string;
  children: ReactNode;
}

const TAB_STYLES = {
  underline: {
    list: 'flex flex-wrap gap-2 border-b border-slate-200 pb-3',
    tab: 'min-h-11 rounded-lg px-4 py-2 text-sm font-medium',
    selected: 'bg-teal-700 text-white',
    idle: 'text-slate-700 hover:bg-slate-100',
  },
  pill: {
    list: 'flex flex-wrap justify-center gap-2',
    tab: 'min-h-11 rounded-full px-4 py-2 text-sm font-medium',
    selected: 'bg-teal-700 text-white',
    idle: 'bg-white text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50',
  },
};

export function Tabs<T extends string>({
  label,
  items,
  value,
  onValueChange,
  variant = 'underline',
  listClassName,
  panelClassName,
  children,
}: TabsProps<T>) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const styles = TAB_STYLES[variant];
  const tabId = (tab: T) => `${id}-tab-${tab}`;

  const onKeyDown = (event: KeyboardEvent) => {
    const index = items.findIndex((item) => item.value === value);
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const target = moves[event.key];
    const next = target === undefined ? undefined : items[target];
    if (target === undefined || !next) return;
    event.preventDefault();
    onValueChange(next.value);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[target]?.focus();
  };

  return (
    <>
      <div ref={list} role="tablist" aria-label={label} className={cn(styles.list, listClassName)}>
        {items.map((item) => {
          const selected = item.value === value;
          return (
            <button
              key={item.value}
              type="button"
              role="tab"
              id={tabId(item.value)}
              aria-selected={selected}
              aria-controls={`${id}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onValueChange(item.value)}
              onKeyDown={onKeyDown}
              className={cn(styles.tab, selected ? styles.selected : styles.idle)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={tabId(value)}
        tabIndex={0}
        className={panelClassName}
      >
        {children}
      </div>
    </>
  );
}
