// The fields the console's search forms share (the audit log's, the orders'): a free-text
// filter, and the first and last UTC day, the last one saying so when it comes before the first.
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';

/** Whether a range of ISO days ends before it starts (ISO days compare as text). */
export const isBackwards = (first: string, last: string) => Boolean(first && last && last < first);

export function DayRangeFields({
  firstLabel,
  lastLabel,
  first,
  last,
  onFirst,
  onLast,
  backwardsError,
}: {
  firstLabel: string;
  lastLabel: string;
  first: string;
  last: string;
  onFirst: (day: string) => void;
  onLast: (day: string) => void;
  /** The error under the last day, when the range runs backwards. */
  backwardsError: string | null;
}) {
  return (
    <>
      <Field label={firstLabel}>
        <input
          type="date"
          className={inputClass}
          value={first}
          onChange={(e) => onFirst(e.target.value)}
        />
      </Field>
      <Field label={lastLabel} error={backwardsError}>
        <input
          type="date"
          className={inputClass}
          value={last}
          onChange={(e) => onLast(e.target.value)}
        />
      </Field>
    </>
  );
}

/** A filter typed as text: an id, an address, a name (no spelling help, no autofill). */
export function TextFilterField({
  label,
  hint,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      <input
        className={inputClass}
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
