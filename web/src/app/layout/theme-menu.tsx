// The theme control of the header: the system's, light or dark, remembered on this device.
import { Monitor, Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { Menu } from '@/components/ui/menu';
import { setTheme, THEMES, type ThemeChoice, useTheme } from '@/lib/theme';

const ICONS = { system: Monitor, light: Sun, dark: Moon } as const;
const NAMES = {
  system: 'nav.themeSystem',
  light: 'nav.themeLight',
  dark: 'nav.themeDark',
} as const;

export function ThemeMenu() {
  const { t } = useTranslation();
  const theme = useTheme();
  const Icon = ICONS[theme];
  return (
    <Menu
      label={`${t('nav.theme')}: ${t(NAMES[theme])}`}
      heading={t('nav.theme')}
      trigger={<Icon aria-hidden="true" className="size-4" />}
      items={THEMES.map((choice: ThemeChoice) => ({
        key: choice,
        label: t(NAMES[choice]),
        current: choice === theme,
        onSelect: () => setTheme(choice),
      }))}
    />
  );
}
