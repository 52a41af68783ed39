// Runs before the page paints (a classic script in <head>, emitted by vite.config.ts as a
// hashed asset: the Content-Security-Policy allows no inline script). It sets the theme class
// the stylesheet's dark palette hangs on, from the stored choice or the system's preference, so
// a prerendered page never flashes the other theme. Kept tiny: it blocks the first paint.
(() => {
  const root = document.documentElement;
  let choice = null;
  try {
    choice = localStorage.getItem('theme');
  } catch {
    choice = null;
  }
  const dark =
    choice === 'dark' ||
    (choice !== 'light' &&
      !!window.matchMedia &&
      matchMedia('(prefers-color-scheme: dark)').matches);
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
})();
