/** A quote failure the customer must hear about ('Exchange rate error', spec/exchange.md §8). */
export class QuoteFailure extends Error {}
