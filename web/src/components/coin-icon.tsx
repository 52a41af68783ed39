import { useState } from 'react';

import { cn } from '@/lib/utils';

import { Badge } from './ui/badge';

/**
 * A coin's logo, served by Ferry from /coins (made at build time from the @web3icons/core
 * package, or drawn in the coin's colour). Should an image be missing, the ticker is drawn
 * on a neutral disc instead — by CSS, so it stays decoration rather than text of the control
 * around it.
 */
export function CoinIcon({
  coin,
  logo,
  className,
}: {
  coin: string;
  logo?: string | undefined;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const source = (logo ?? coin).toLowerCase();
  if (!failed && /^[a-z0-9]+$/.test(source)) {
    return (
      <img
        src={`/coins/${source}.svg`}
        alt=""
        aria-hidden="true"
        width={28}
        height={28}
        loading="lazy"
        onError={() => setFailed(true)}
        className={cn('size-7 shrink-0 rounded-full', className)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-ticker={coin.slice(0, coin.length > 4 ? 3 : 4)}
      className={cn(
        'inline-flex size-7 shrink-0 items-center justify-center rounded-full bg-slate-600 text-[9px] font-bold tracking-tight text-white before:content-[attr(data-ticker)]',
        className,
      )}
    />
  );
}

/** ERC20, BEP20 and TRC20 for those networks (spec/exchange.md §2), else the network code. */
export function networkBadge(network: string): string {
  return { ETH: 'ERC20', BSC: 'BEP20', TRX: 'TRC20' }[network] ?? network;
}

export function NetworkBadge({ network }: { network: string }) {
  return <Badge size="sm">{networkBadge(network)}</Badge>;
}
