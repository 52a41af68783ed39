// Runs before the page paints (a classic script in <head>, emitted by vite.config.ts as a
// hashed asset: the Content-Security-Policy allows no inline script). It sets the theme class
// the stylesheet's dark palette hangs on, from the stored choice or the system's preference, so
// a prerendered page never flashes the other theme; and it notes clicks no code answered yet
// (below). Kept tiny: it blocks the first paint.
(() => {
  let choice;
  try {
    choice = localStorage.getItem('theme');
  } catch {
    // Storage refused (a privacy mode): the system's preference decides.
  }
  const dark =
    choice === 'dark' ||
    (choice !== 'light' && !!window.matchMedia?.('(prefers-color-scheme: dark)').matches);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
})();

// The prerendered page shows buttons before any code answers them: clicks on those that open or
// close something (a menu) are noted here until the app's module for them takes the list over
// (lib/typed-before-hydration.ts), and made again once React owns each button.
window.ferryClicksBeforeApp = new Set();
addEventListener(
  'click',
  (event) => window.ferryClicksBeforeApp?.add(event.target.closest?.('button[aria-expanded]')),
  true,
);
