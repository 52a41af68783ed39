import { cn } from '@/lib/utils';

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
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex size-7 shrink-0 items-center justify-center rounded-full text-[9px] font-bold tracking-tight text-white',
        className,
      )}
      style={{ backgroundColor: color ?? '#64748b' }}
    >
      {letters}
    </span>
  );
}

export function NetworkBadge({ network }: { network: string }) {
  const label = { ETH: 'ERC20', BSC: 'BEP20', TRX: 'TRC20' }[network] ?? network;
  return (
    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-slate-700">
      {label}
    </span>
  );
}
