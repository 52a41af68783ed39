import { describe, expect, it } from 'vitest';

import { type FaqItem, matches } from './faq';

const item: FaqItem = {
  id: 'refunds.time',
  category: 'refunds',
  question: 'How long does a refund take?',
  answer: 'Refunds take 1 to 3 business days.',
};

describe('FAQ search', () => {
  it('matches words of the question or the answer, in any case', () => {
    expect(matches(item, 'REFUND')).toBe(true);
    expect(matches(item, 'business days')).toBe(true);
    expect(matches(item, 'refund weeks')).toBe(false);
    expect(matches(item, '   ')).toBe(true);
  });
});
