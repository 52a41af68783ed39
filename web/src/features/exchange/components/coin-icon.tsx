import { cn } from '@/lib/utils';

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textColorOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // Contrast with white is 1.05 / (L + 0.05); with black (L + 0.05) / 0.05.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#0f172a';
}

/** A coin's mark: its brand colour and ticker, drawn locally (nothing is hot-linked). */
export function CoinIcon({
  coin,
  color,
  className,
}: {
  coin: string;
  color?: string | undefined;
  className?: string;
}) {
  const letters = coin.slice(0, coin.length > 4 ? 3 : 4);
  // The letters are drawn by CSS, so they are decoration, not text of the control around them.
  return (
    <span
      aria-hidden="true"
      data-ticker={letters}
      className={cn(
        'inline-flex size-7 shrink-0 items-center justify-center rounded-full text-[9px] font-bold tracking-tight before:content-[attr(data-ticker)]',
        className,
      )}
      style={{ backgroundColor: color ?? '#475569', color: textColorOn(color ?? '#475569') }}
    />
  );
}

/** ERC20, BEP20 and TRC20 for those networks (spec/exchange.md §2), else the network code. */
export function networkBadge(network: string): string {
  return { ETH: 'ERC20', BSC: 'BEP20', TRX: 'TRC20' }[network] ?? network;
}

export function NetworkBadge({ network }: { network: string }) {
  const label = networkBadge(network);
  return (
    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-slate-700">
      {label}
    </span>
  );
}
