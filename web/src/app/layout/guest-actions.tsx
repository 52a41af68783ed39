import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/** Sign in and Sign up, for visitors (the header and the phone menu). */
export function GuestActions({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <Link to={paths.signIn} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
        {t('nav.signIn')}
      </Link>
      <Link to={paths.signUp} className={buttonVariants({ variant: 'primary', size: 'sm' })}>
        {t('nav.signUp')}
      </Link>
    </div>
  );
}
