import { describe, expect, it } from 'vitest';

import { checkAddress, needsMemo, networkLabel } from './address-rules';
import { addressFromQr } from './qr-address';

const c = (code: string, coin: string, network: string) => ({ code, coin, network });

describe('address rules (spec/exchange.md §5)', () => {
  it.each([
    [c('ETH', 'ETH', 'ETH'), '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    [c('USDTBSC', 'USDT', 'BSC'), '0x52908400098527886e0f7030069857d2e4169ee7'],
    [c('BTC', 'BTC', 'BTC'), '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    [c('BTC', 'BTC', 'BTC'), 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    [c('XRP', 'XRP', 'XRP'), 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
    [c('TRX', 'TRX', 'TRX'), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    [c('USDTTRC', 'USDT', 'TRX'), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    [c('DOGE', 'DOGE', 'DOGE'), 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
    [c('LTC', 'LTC', 'LTC'), 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9'],
    [c('DOT', 'DOT', 'DOT'), '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'],
    [c('ATOM', 'ATOM', 'ATOM'), 'cosmos1fl48vsnmsdzcv85q5d2q4z5ajdha8yu34mf0eh'],
    [c('XLM', 'XLM', 'XLM'), 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ'],
    [c('EOS', 'EOS', 'EOS'), 'eosio.token'],
    [c('SOL', 'SOL', 'SOL'), 'So11111111111111111111111111111111111111112'],
    [
      c('XMR', 'XMR', 'XMR'),
      '44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A',
    ],
  ])('accepts a %o address', (currency, address) => {
    expect(checkAddress(currency, address)).toBeNull();
  });

  it.each([
    [c('ETH', 'ETH', 'ETH'), '0x123'],
    [c('BTC', 'BTC', 'BTC'), '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    [c('XRP', 'XRP', 'XRP'), 'xHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
    [c('DOGE', 'DOGE', 'DOGE'), 'AH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
    [c('EOS', 'EOS', 'EOS'), 'UPPERCASE'],
    [c('XMR', 'XMR', 'XMR'), 'short'],
  ])('refuses a bad %o address', (currency, address) => {
    expect(checkAddress(currency, address)).toEqual({ kind: 'invalid' });
  });

  it('asks for a destination address for XLM, ATOM, EOS and TWTBSC', () => {
    expect(checkAddress(c('XLM', 'XLM', 'XLM'), ' ')).toEqual({
      kind: 'empty',
      variant: 'destination',
    });
    expect(checkAddress(c('TWTBSC', 'TWT', 'BSC'), '')).toEqual({
      kind: 'empty',
      variant: 'destination',
    });
    expect(checkAddress(c('BTC', 'BTC', 'BTC'), '')).toEqual({ kind: 'empty', variant: 'your' });
  });

  it('knows which coins need a memo', () => {
    expect(needsMemo({ code: 'XRP', coin: 'XRP', tag: 'Destination tag' })).toBe(true);
    expect(needsMemo({ code: 'EOS', coin: 'EOS', tag: null })).toBe(true);
    expect(needsMemo({ code: 'BTC', coin: 'BTC', tag: null })).toBe(false);
  });

  it('labels ERC20, BEP20 and TRC20 networks', () => {
    expect(networkLabel({ network: 'ETH' })).toBe('ERC20');
    expect(networkLabel({ network: 'BSC' })).toBe('BEP20');
    expect(networkLabel({ network: 'TRX' })).toBe('TRC20');
    expect(networkLabel({ network: 'SOL' })).toBe('SOL');
  });

  it('strips coin URI prefixes and query parts from scanned text', () => {
    expect(addressFromQr('bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa?amount=1')).toBe(
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    );
    expect(addressFromQr('ethereum:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    expect(addressFromQr('TRC20:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    expect(addressFromQr('  rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh ')).toBe(
      'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
    );
  });

  // A real-shaped invoice for 50 000 sats (signed by the e2e test key): the client looks at its
  // shape only, and leaves the decoding to the server.
  const INVOICE =
    'lnbc500u1p4s0awzpp5pd5tmrgfls36ycsx7ppl32gqcw7edtemkelt8f3vuyczjaqa26jqsp5gqq8jv9qquw2x87ku42ey805tl280vxra855rm8k0xv69wgqd8ysdqsv5ex2grsv9uk7at5xqr8pq9qyqsgqcqpfkc8lu4tfn9ejw45ml9kj7ha6detm9gh7zc2s7fu56s9a5cezl0fka72jm249w3aqsmc2r7a7qqs7emzzu5fatcyxf55s5n4t6v0pdcgqngcffj';
  const BTCLN = c('BTCLN', 'BTC', 'LN');

  it('takes a Lightning invoice as the BTCLN address, in either case, with or without lightning:', () => {
    expect(checkAddress(BTCLN, INVOICE)).toBeNull();
    expect(checkAddress(BTCLN, `lightning:${INVOICE}`)).toBeNull();
    expect(checkAddress(BTCLN, `LIGHTNING:${INVOICE.toUpperCase()}`)).toBeNull();
    // A test network's invoice has the shape: the server says why it is refused.
    expect(checkAddress(BTCLN, INVOICE.replace('lnbc', 'lntb'))).toBeNull();
  });

  it('refuses a Bitcoin address or a cut invoice as the BTCLN address, and an invoice for BTC', () => {
    expect(checkAddress(BTCLN, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toEqual({
      kind: 'invalid',
    });
    expect(checkAddress(BTCLN, INVOICE.slice(0, 60))).toEqual({ kind: 'invalid' });
    expect(checkAddress(c('BTC', 'BTC', 'BTC'), INVOICE)).toEqual({ kind: 'invalid' });
  });

  it('strips lightning: from a scanned invoice', () => {
    expect(addressFromQr(`lightning:${INVOICE}`)).toBe(INVOICE);
    expect(addressFromQr(`LIGHTNING:${INVOICE.toUpperCase()}`)).toBe(INVOICE.toUpperCase());
  });
});
