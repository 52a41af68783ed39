// Bitcoin over Lightning (`BTCLN`): its "address" is a BOLT 11 invoice. Paid out, the invoice
// says how much (the order is for exactly that, at a fixed rate); paid in, the order's deposit
// is an invoice the exchange signed for the amount to send.

/** The network of Lightning currencies in the server's list. */
export const LIGHTNING_NETWORK = 'LN';

/** A currency, or an order's side, on Lightning. */
export function isLightning(currency: { network?: string | null } | undefined | null): boolean {
  return currency?.network === LIGHTNING_NETWORK;
}

/**
 * What could be an invoice, in either case, with or without `lightning:`. Only its shape: the
 * server decodes it, checks its signature and says what is wrong (a test network's `lntb…`
 * included, so that the customer reads why rather than "invalid").
 */
export function looksLikeInvoice(text: string): boolean {
  return /^(lightning:)?ln[0-9a-z]{100,}$/i.test(text);
}

/** Why the server will not pay out to an invoice (`reason` of `POST /api/validate-address`). */
export type InvoiceReason =
  | 'invoice_malformed'
  | 'invoice_network'
  | 'invoice_no_amount'
  | 'invoice_sub_satoshi'
  | 'invoice_unpayable'
  | 'invoice_expired'
  | 'invoice_expires_soon'
  | 'invoice_used';

/** An invoice the server will pay out to: what it asks for (BTC) and when it lapses (Unix s). */
export interface CheckedInvoice {
  amount: string;
  expiresAt: number;
}
