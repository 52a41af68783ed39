// The operator's fees as the site's pages state them (the about page, the FAQ, the dashboard):
// apart from the settings themselves, so the landing page's bundle does without them.
import { formatPercent } from './format-number';
import type { SiteConfig } from './site-config';

/** The float and fixed fees in percent, once the settings are known. */
export function feesOf(config: SiteConfig | undefined) {
  return config
    ? { float: config.fees.float_percent, fixed: config.fees.fixed_percent }
    : undefined;
}

/** The fees as the reader's locale writes percentages (`0.5%`, `0,5 %`), for texts. */
export function percentFees(config: SiteConfig | undefined, language: string) {
  const fees = feesOf(config) ?? { float: '0.5', fixed: '1.0' };
  return {
    float: formatPercent(fees.float, language),
    fixed: formatPercent(fees.fixed, language),
  };
}
