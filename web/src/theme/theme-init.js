// Runs before the page paints (a classic script in <head>, emitted by vite.config.ts as a
// hashed asset: the Content-Security-Policy allows no inline script). It sets the theme class
// the stylesheet's dark palette hangs on, from the stored choice or the system's preference, so
// a prerendered page never flashes the other theme; first, it notes clicks no code answers yet.
// Kept tiny (and minified): it blocks the first paint.
// The prerendered page shows buttons before any code answers them: clicks on those that open or
// close something (a menu) are noted here, with when, until the app's module for them takes the
// list over (lib/typed-before-hydration.ts) and makes each again once React owns the button.
window.ferryClicksBeforeApp = new Map();
addEventListener(
  'click',
  (event) =>
    window.ferryClicksBeforeApp?.set(
      event.target.closest?.('#root[data-prerendered] button[aria-expanded]'),
      performance.now(),
    ),
  true,
);

(() => {
  let choice;
  try {
    choice = localStorage.getItem('theme');
  } catch {
    // Storage refused (a privacy mode): the system's preference decides.
  }
  const dark =
    choice === 'dark' ||
    (choice !== 'light' && !!window.matchMedia?.('(prefers-color-scheme: dark)')?.matches);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
})();
