// A scanned QR code's text as an address (spec/exchange.md §5). Only the scanner, which loads
// on demand, needs it: it stays out of the entry chunk.

const QR_PREFIXES = [
  'bitcoin:',
  'ethereum:',
  'litecoin:',
  'xrp:',
  'bep20:',
  'trc20:',
  'lightning:',
];

/** Strips a coin URI prefix and any query part from scanned QR text (§5). */
export function addressFromQr(text: string): string {
  let value = text.trim();
  const lower = value.toLowerCase();
  for (const prefix of QR_PREFIXES) {
    if (lower.startsWith(prefix)) {
      value = value.slice(prefix.length);
      break;
    }
  }
  return value.split('?')[0]?.split('@')[0] ?? '';
}
