// Published sample addresses the sandbox offers (spec/accounts-and-pages.md §2.2: sample-address
// buttons for ETH and BTC, in sandbox mode only). They pass the server's checksums.
const EVM_SAMPLE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BTC_SAMPLE = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

export const SAMPLE_ADDRESSES: Record<string, string> = {
  ETH: EVM_SAMPLE,
  USDT: EVM_SAMPLE,
  USDC: EVM_SAMPLE,
  USDTBSC: EVM_SAMPLE,
  USDCBSC: EVM_SAMPLE,
  BNB: EVM_SAMPLE,
  LINK: EVM_SAMPLE,
  BTC: BTC_SAMPLE,
};
