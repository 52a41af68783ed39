// The console's pages that `@/config/paths` does not list (its module is in the landing page's
// bundle, whose budget is tight): sub-paths of `paths.admin`, kept within the back office.
import { paths } from '@/config/paths';

export const consolePaths = {
  messages: `${paths.admin}/messages`,
  currencies: `${paths.admin}/currencies`,
  incidents: `${paths.admin}/incidents`,
  apiKeys: `${paths.admin}/api-keys`,
} as const;
