// Renders a translated sentence whose parts are marked `<name>…</name>`, wrapping each marked
// part with the element given for its name — links inside sentences, without shipping an HTML
// parser. Unknown tags render as plain text; nothing is ever parsed as HTML.
import { Fragment, type ReactNode } from 'react';

export function TaggedText({
  text,
  tags,
}: {
  text: string;
  tags: Record<string, (children: string) => ReactNode>;
}) {
  const parts: ReactNode[] = [];
  const pattern = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const [whole, name = '', inner = ''] = match;
    parts.push(text.slice(last, match.index));
    const wrap = tags[name];
    parts.push(wrap ? <Fragment key={match.index}>{wrap(inner)}</Fragment> : inner);
    last = (match.index ?? 0) + whole.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
