// The signed-in user's pages: only the user menu and the phone menu show them, and both load
// lazily, so these links stay out of the landing page's bundle.
import { paths } from '@/config/paths';

/** The signed-in user's pages, in the order of spec/accounts-and-pages.md §2.7. */
export const ACCOUNT_LINKS = [
  { to: paths.orders, key: 'nav.orders' },
  { to: paths.wallet, key: 'nav.wallet' },
  { to: paths.dashboard, key: 'nav.dashboard' },
  { to: paths.profile, key: 'nav.profile' },
  { to: paths.affiliate, key: 'nav.affiliate' },
  { to: paths.apiManagement, key: 'nav.apiManagement' },
] as const;
