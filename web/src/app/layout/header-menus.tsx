// The header's language and theme menus, loaded just after the first screen's code: the
// prerendered page shows them at once, the app makes them work a moment later.
import { LanguageMenu } from './language-menu';
import { ThemeMenu } from './theme-menu';

export default function HeaderMenus() {
  return (
    <>
      <LanguageMenu />
      <ThemeMenu />
    </>
  );
}
