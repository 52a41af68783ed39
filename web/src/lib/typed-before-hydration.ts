// What a visitor types into a prerendered page before the app has taken it over must survive.
//
// React 19 leaves the DOM's value alone while it hydrates a field, but the component's state
// still holds the prerendered value: the next render of that field (a quote arriving, say) puts
// the old value back, and the order would be made without the address the visitor typed.
// React's fix (facebook/react#33129) sits behind a flag its stable builds leave off. So the app
// remembers every field the visitor changed, and once React has taken a field over, replays the
// change as the event React listens for: `input` for text, a click for a radio or checkbox,
// `change` for a select. The component's own handler then sees it as typed.
//
// A click on a button that opens something (a header menu, whose code comes in a chunk of its
// own) is lost the same way: React drops a click on a part of the page it cannot hydrate yet.
// The pre-paint script (theme/theme-init.js) notes such clicks until this module runs, and this
// module from then on; each noted button is clicked again, once, when React owns it, unless the
// visitor has moved on (five seconds, a key pressed, a pointer put down elsewhere).

declare global {
  interface Window {
    /** What the pre-paint script noted: each clicked opening button, and when (`performance`). */
    ferryClicksBeforeApp?: Map<Element | null | undefined, number>;
  }
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** What the visitor left in a field: its text, or for a radio or checkbox whether it is on. */
type Typed = { value: string } | { checked: boolean };

/** How often to look whether React has taken a remembered field over, and for how long. */
const POLL_MS = 50;
const GIVE_UP_MS = 30_000;

const NOT_TYPED_INTO = new Set(['hidden', 'file', 'submit', 'reset', 'button', 'image']);

/** Buttons whose clicks before the app owns them are made again (theme-init.js notes the same). */
const OPENERS = 'button[aria-expanded]';

/** A click is made again only this soon after the visitor made it: later, they have moved on. */
const CLICK_KEPT_MS = 5_000;

function isField(node: EventTarget | null): node is Field {
  if (node instanceof HTMLTextAreaElement || node instanceof HTMLSelectElement) return true;
  return node instanceof HTMLInputElement && !NOT_TYPED_INTO.has(node.type);
}

function isCheckable(field: Field): field is HTMLInputElement {
  return field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox');
}

/** The field as it is now, if the visitor (or the browser's autofill) changed it from the HTML. */
function changedFromHtml(field: Field): Typed | null {
  if (isCheckable(field)) {
    return field.checked === field.defaultChecked ? null : { checked: field.checked };
  }
  if (field instanceof HTMLSelectElement) {
    const changed = [...field.options].some((option) => option.selected !== option.defaultSelected);
    return changed ? { value: field.value } : null;
  }
  return field.value === field.defaultValue ? null : { value: field.value };
}

function readTyped(field: Field): Typed {
  return isCheckable(field) ? { checked: field.checked } : { value: field.value };
}

/** React has hydrated this element: it keeps its props on the node from then on. */
function takenOver(element: Element): boolean {
  return Object.keys(element).some((key) => key.startsWith('__reactProps$'));
}

/**
 * Sets the field to what the visitor typed so that React sees a change. React compares the DOM
 * with the value it last knew (its tracker, updated by the element's `value`/`checked` setter),
 * so the field is first set through that setter to something else, then to the typed value
 * without it, and the event follows.
 */
function replay(field: Field, typed: Typed) {
  if ('checked' in typed) {
    const input = field as HTMLInputElement;
    // A radio goes off only because another in its group went on: that one is replayed.
    if (input.type === 'radio' && !typed.checked) return;
    input.checked = !typed.checked;
    input.click();
    return;
  }
  if (field instanceof HTMLSelectElement) {
    field.value = typed.value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  field.value = typed.value === '' ? ' ' : '';
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set;
  setter?.call(field, typed.value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Call just before hydrating `root`: remembers what was typed into its fields so far, and what is
 * typed into fields React has not yet taken over, and hands each to React once it has; then makes
 * the clicks the pre-paint script noted. It stops once React has taken over every field and
 * opening button (or after half a minute, for a page that never loads).
 */
export function keepTypedThroughHydration(root: HTMLElement) {
  const pending = new Map<Field, Typed>();
  for (const field of root.querySelectorAll('input, textarea, select')) {
    if (!isField(field)) continue;
    const typed = changedFromHtml(field);
    if (typed) pending.set(field, typed);
  }
  // Typed after React took the field over: React handled it. Before: it is remembered. Events
  // this module dispatches are not trusted, and not remembered.
  const remember = (event: Event) => {
    const field = event.target;
    if (!event.isTrusted || !isField(field) || !root.contains(field)) return;
    if (takenOver(field)) pending.delete(field);
    else pending.set(field, readTyped(field));
  };
  root.addEventListener('input', remember, true);
  root.addEventListener('change', remember, true);

  // Clicks on opening buttons, and when: those the pre-paint script noted (unless the visitor has
  // since gone on to type into a field), and from now on those React neither handled nor could.
  const clicked = new Map<Element, number>();
  const noted = window.ferryClicksBeforeApp;
  window.ferryClicksBeforeApp = undefined;
  if (noted instanceof Map && !isField(document.activeElement)) {
    for (const [button, at] of noted) {
      if (button instanceof Element && button.matches(OPENERS)) clicked.set(button, at);
    }
  }
  const noteClick = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest(OPENERS) : null;
    if (!button) return;
    const at = performance.now();
    // Looked at once the event is over: React may hydrate the button on the spot and handle the
    // click itself, which also makes an earlier note of it void.
    setTimeout(() => {
      if (takenOver(button)) clicked.delete(button);
      else clicked.set(button, at);
    }, 0);
  };
  // Typing or pointing elsewhere: earlier clicks are not made again.
  const movedOn = (event: Event) => {
    if (event.isTrusted) clicked.clear();
  };
  document.addEventListener('click', noteClick, true);
  document.addEventListener('keydown', movedOn, true);
  document.addEventListener('pointerdown', movedOn, true);

  const started = Date.now();
  const handOver = () => {
    for (const [field, typed] of pending) {
      if (!field.isConnected) pending.delete(field);
      else if (takenOver(field)) {
        pending.delete(field);
        replay(field, typed);
      }
    }
    for (const [button, at] of clicked) {
      const stale = performance.now() - at > CLICK_KEPT_MS;
      if (stale || !button.isConnected || !root.contains(button)) clicked.delete(button);
      else if (takenOver(button)) {
        clicked.delete(button);
        (button as HTMLElement).click();
      }
    }
    const waiting =
      pending.size > 0 ||
      clicked.size > 0 ||
      [...root.querySelectorAll(`input, textarea, select, ${OPENERS}`)].some(
        (node) => !takenOver(node),
      );
    if (waiting && Date.now() - started < GIVE_UP_MS) {
      setTimeout(handOver, POLL_MS);
      return;
    }
    root.removeEventListener('input', remember, true);
    root.removeEventListener('change', remember, true);
    document.removeEventListener('click', noteClick, true);
    document.removeEventListener('keydown', movedOn, true);
    document.removeEventListener('pointerdown', movedOn, true);
  };
  setTimeout(handOver, POLL_MS);
}
