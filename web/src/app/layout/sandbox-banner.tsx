import { FlaskConical } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { useSiteConfig } from '@/lib/site-config';

/** Shown on every page while the sandbox provider is active: no real funds may be sent. */
export function SandboxBanner() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  if (!config?.sandbox) return null;
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-2 bg-amber-100 px-4 py-1.5 text-center text-xs font-medium text-amber-950 sm:py-2 sm:text-sm"
    >
      <FlaskConical aria-hidden="true" className="size-4 shrink-0" />
      {t('sandbox.banner')}
    </div>
  );
}
