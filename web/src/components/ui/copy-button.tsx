// A copy button: an icon, or an outlined button with its text; "Copied" for two seconds.
// Its words are page texts (`copy.*`): it is used on lazily loaded pages only.
import { Check, Copy } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { useCopy } from '@/lib/use-copy';
import { cn } from '@/lib/utils';

import { Button } from './button';

interface CopyButtonProps {
  value: string;
  /** What is copied, for the accessible name: "Copy {what}". */
  what: string;
  /** The toast after a successful copy; "Copied" when not given. */
  successMessage?: string;
  /** Visible text: shown on an outlined button instead of the bare icon. */
  text?: string;
  className?: string;
}

export function CopyButton({ value, what, successMessage, text, className }: CopyButtonProps) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();
  const Icon = copied ? Check : Copy;
  const icon = <Icon aria-hidden="true" className={cn('size-4', copied && 'text-emerald-700')} />;
  const onClick = () => void copy(value, successMessage);
  if (text) {
    return (
      <Button variant="outline" className={className} onClick={onClick}>
        {icon}
        {copied ? t('copy.copied') : text}
      </Button>
    );
  }
  return (
    <button
      type="button"
      aria-label={copied ? t('copy.copied') : t('copy.copy', { what })}
      className={cn(
        'inline-flex size-11 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 md:size-9',
        className,
      )}
      onClick={onClick}
    >
      {icon}
    </button>
  );
}
